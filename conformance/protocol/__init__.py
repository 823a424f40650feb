"""The protocol: the messages an engine reads and answers, their JSON lines and schemas, and the reference engine behind them."""
