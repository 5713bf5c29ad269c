"""Item calibration: each question's difficulty, discrimination and guessing floor from the
learners' first answers (a 2PL/3PL item response model, em.py and mstep.py, with the priors
of priors.py), and the use case that fits and stores them per deck (service.py)."""

from __future__ import annotations

from bot.core.calibration.em import Fit as Fit
from bot.core.calibration.em import Responses as Responses
from bot.core.calibration.em import fit as fit
from bot.core.calibration.priors import FitSettings as FitSettings
from bot.core.calibration.priors import Priors as Priors
from bot.core.calibration.priors import chance_of_guessing as chance_of_guessing
from bot.core.calibration.responses import ResponseTable as ResponseTable
from bot.core.calibration.service import Calibration as Calibration
from bot.core.calibration.service import DeckCalibration as DeckCalibration
