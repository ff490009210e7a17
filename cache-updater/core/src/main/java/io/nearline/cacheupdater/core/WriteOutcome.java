package io.nearline.cacheupdater.core;

/** What an SCN-ordered write did. Every outcome is counted under {@code write.<name in lower case>}. */
public enum WriteOutcome {
    /** The record is now stored (inserted, or replaced an older version). */
    APPLIED,
    /** The store already holds a newer version; nothing written. */
    STALE,
    /** The store already holds exactly this version (a replay); nothing written. */
    DUPLICATE,
    /**
     * The store held exactly this version and the writer asked to refresh it: rewritten unchanged but
     * for its write time, so its TTL starts again (a periodic bootstrap keeping the cache warm).
     */
    REFRESHED,
    /** Not written: retries exhausted, a non-retriable store error, or an unreadable stored record. */
    FAILED
}
