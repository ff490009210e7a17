package io.nearline.cacheupdater.core;

import io.nearline.common.version.Version;

/**
 * The result of one SCN-ordered write.
 *
 * @param outcome  what happened
 * @param winner   the version stored when the write finished deciding: the incoming one when
 *                 APPLIED or DUPLICATE, the newer stored one when STALE, {@link Version#NONE} when FAILED
 * @param attempts store round trips (read + mutate) it took, 1 without conflicts
 * @param failure  why it FAILED, else null
 */
public record WriteResult(WriteOutcome outcome, Version winner, int attempts, Throwable failure) {}
