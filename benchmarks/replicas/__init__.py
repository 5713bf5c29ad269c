"""Replicas on PostgreSQL: answers with one replica against two
(`python -m benchmarks.replicas.answers`), leader failover
(`python -m benchmarks.replicas.failover`), and the replica processes they start."""
