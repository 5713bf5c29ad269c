"""Storage adapters: the quiz core's ports (`bot.core.ports`) on a database.

`storage.sqlite` is the one there is; each adapter lives in its own subpackage.
"""
