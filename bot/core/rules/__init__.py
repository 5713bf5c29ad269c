"""Pure rules of the quiz: which question comes next (selection), what a press scores
(scoring), the periods of leaderboards (periods), when a daily question is due (schedule), how a
board is ordered (ranking) and how a learner's mastery of a topic is judged (mastery). No I/O,
no clock: everything they need is passed in."""
