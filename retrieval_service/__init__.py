"""RetrievalService: the resident episodic index (FAISS dense + in-memory BM25,
fused by reciprocal rank fusion), kept fresh from the journal's change feed,
with JournalService.SearchEpisodes as the fallback read path."""
