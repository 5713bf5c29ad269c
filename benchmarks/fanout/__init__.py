"""The daily fan-out (`python -m benchmarks.fanout`): the bot in a child process, its
database seeded through the storage ports, one run, the kill test and the report."""
