/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
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
