"""Reporting: the report files (JSON, JUnit, markdown), the HTML report and its cards, badges and the comparison matrix."""
