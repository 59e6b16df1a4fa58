"""Through the Ages rules by mechanism: board (TTA-1, 7.4-7.6), row and ages (TTA-3, TTA-4),
civil/military actions (TTA-7), turn structure and end of turn (TTA-5, TTA-8), effects (cards)."""
