"""Each learner's own FSRS parameters: fitted from their review history (train), kept only when
they predict the learner's latest reviews (held out) better than the defaults do."""

from bot.core.memory.fit.loss import log_loss as log_loss
from bot.core.memory.fit.train import MIN_REVIEWS as MIN_REVIEWS
from bot.core.memory.fit.train import FitOutcome as FitOutcome
from bot.core.memory.fit.train import fit_learner as fit_learner
