"""Engine kits: what ``referee init --language L DIR`` writes (:mod:`referee.kits.init`)."""
