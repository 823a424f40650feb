"""Running an engine: its process and supervision, interrupts, the runner, expectations, and the executor for heavy jobs."""
