"""JournalService: the canonical append-only journal, episodes, run memory, receipts, feed."""
