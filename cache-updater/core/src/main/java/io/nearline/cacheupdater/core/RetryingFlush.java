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

import io.nearline.common.cache.CacheKey;
import io.nearline.common.events.Rejection;
import io.nearline.common.store.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a batch's changes until the store has taken every one of them or refused it for good. A
 * transient failure (store unavailable, conflicts beyond the retry budget) is held and written again
 * after pauses growing to {@code maxPause}, so the caller blocks and its job stops pulling input instead
 * of dropping it. While the store reports itself unhealthy, one write probes it before the rest follow:
 * a store that is down is not sent the whole batch to time out on.
 */
final class RetryingFlush {

    private static final Logger LOG = LoggerFactory.getLogger(RetryingFlush.class);

    /** What became of each change. */
    interface Outcomes {
        /** The store took it: applied, or found stale, duplicate or refreshed. */
        void taken(UpdateBatch.Pending change, WriteOutcome outcome);

        /** The store refused it for good (or its partial row could not be completed). */
        void refused(UpdateBatch.Pending change, Rejection rejection);
    }

    private final ScnOrderedWriter writer;
    private final ParallelWrites writes;
    private final Duration maxPause;

    RetryingFlush(ScnOrderedWriter writer, ParallelWrites writes, Duration maxPause) {
        this.writer = writer;
        this.writes = writes;
        this.maxPause = maxPause;
    }

    /** Writes {@code changes}, each one's fate told to {@code outcomes}; returns when none is left. */
    void write(List<Map.Entry<CacheKey, UpdateBatch.Pending>> changes, Outcomes outcomes) throws InterruptedException {
        List<Map.Entry<CacheKey, UpdateBatch.Pending>> todo = changes;
        long pauseMillis = 100;
        boolean probing = !writer.storeHealth().healthy();
        while (!todo.isEmpty()) {
            int sent = probing ? 1 : todo.size();
            WriteResult[] results = writes.writeAll(todo.subList(0, sent));
            List<Map.Entry<CacheKey, UpdateBatch.Pending>> again = new ArrayList<>();
            Throwable lastTransient = null;
            for (int i = 0; i < results.length; i++) {
                WriteResult r = results[i];
                UpdateBatch.Pending change = todo.get(i).getValue();
                if (r.outcome() != WriteOutcome.FAILED) {
                    outcomes.taken(change, r.outcome());
                } else if (r.failure() instanceof InterruptedException) {
                    throw new InterruptedException("cache flush interrupted (job stopping)");
                } else if (r.failure() instanceof StoreUnavailableException) {
                    again.add(todo.get(i));
                    lastTransient = r.failure();
                } else {
                    outcomes.refused(
                            change,
                            r.failure() instanceof PartialImageException partial
                                    ? Rejection.of(Rejection.Reason.PARTIAL_IMAGE, partial.getMessage())
                                    : Rejection.of(Rejection.Reason.STORE_REJECTED, String.valueOf(r.failure())));
                }
            }
            again.addAll(todo.subList(sent, todo.size()));
            todo = again;
            if (lastTransient == null) {
                probing = false; // every write sent went through: the store answers again
            } else {
                // The store is in trouble: hold on to these writes (and so stop pulling input) until it recovers.
                probing = !writer.storeHealth().healthy();
                LOG.warn(
                        "{} cache writes still failing ({}); retrying in {} ms{}, input paused",
                        todo.size(),
                        lastTransient,
                        pauseMillis,
                        probing ? " with one write while the store reports itself unhealthy" : "");
                Thread.sleep(pauseMillis);
                pauseMillis = Math.min(pauseMillis * 2, maxPause.toMillis());
            }
        }
    }
}
