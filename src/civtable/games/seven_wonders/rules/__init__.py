"""The rules of 7 Wonders, one module per mechanism (setup, trade, turn, military)."""
