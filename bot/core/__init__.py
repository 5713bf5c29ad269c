"""The core: the model, the ports storage implements, pure rules and the use cases (quiz,
rounds, daily, exams, reports, memory, the outbox). No Telegram, no storage, no driver; time
comes from a clock; `services.build_services` wires it."""
