package io.nearline.cacheupdater.core;

import io.nearline.cacheupdater.core.events.Rejection;
import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.metrics.Metrics;
import io.nearline.common.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Changes waiting to be written, at most one per key: a newer version replaces an older one in the
 * batch (the older one could only end STALE anyway), counted as {@code write.superseded}.
 * {@link #flush} writes every key through the SCN-ordered write, different keys in parallel, and
 * returns only when each write is durable — so an engine may commit its input position right after.
 *
 * <p>Failures: a transient one (store unavailable, conflicts beyond the retry budget) is retried with
 * growing pauses until it succeeds; the flush blocks meanwhile, so the job stops pulling input instead
 * of dropping it. A permanent one (the store refuses the write for good) is returned for dead-lettering.
 * Not thread-safe: one batch per task.
 */
public final class UpdateBatch {

    private static final Logger LOG = LoggerFactory.getLogger(UpdateBatch.class);

    /** A change waiting in the batch, with where it came from (for a dead letter). */
    public record Pending(ChangeEvent event, CacheRecord record, String topic, int partition, long offset) {
    }

    /** A change the store refused for good. */
    public record Refused(Pending change, Rejection rejection) {
    }

    private final ScnOrderedWriter writer;
    private final Metrics.Counter superseded;
    private final Duration maxPause;
    private final Map<CacheKey, Pending> pending = new LinkedHashMap<>();

    public UpdateBatch(ScnOrderedWriter writer, Metrics metrics, Duration maxPause) {
        this.writer = writer;
        this.superseded = metrics.counter("write.superseded");
        this.maxPause = maxPause;
    }

    public void add(CacheKey key, Pending change) {
        Pending before = pending.get(key);
        if (before == null || change.record().version().isNewerThan(before.record().version())) {
            pending.put(key, change);
        }
        if (before != null) {
            superseded.inc();
        }
    }

    public int size() {
        return pending.size();
    }

    public boolean isEmpty() {
        return pending.isEmpty();
    }

    /** Writes everything pending; blocks through transient store trouble. @return what the store refused for good */
    public List<Refused> flush(ExecutorService pool) throws InterruptedException {
        List<Refused> refused = new ArrayList<>();
        Map<CacheKey, Pending> todo = new LinkedHashMap<>(pending);
        pending.clear();
        long pauseMillis = 100;
        while (!todo.isEmpty()) {
            List<Map.Entry<CacheKey, Pending>> entries = new ArrayList<>(todo.entrySet());
            List<Future<WriteResult>> results = new ArrayList<>(entries.size());
            for (Map.Entry<CacheKey, Pending> e : entries) {
                results.add(pool.submit(() -> writer.write(e.getKey(), e.getValue().record())));
            }
            todo.clear();
            Throwable lastTransient = null;
            for (int i = 0; i < entries.size(); i++) {
                WriteResult r = await(results.get(i));
                if (r.outcome() != WriteOutcome.FAILED) {
                    continue;
                }
                if (r.failure() instanceof InterruptedException) {
                    throw new InterruptedException("cache flush interrupted (job stopping)");
                }
                if (r.failure() instanceof StoreUnavailableException) {
                    todo.put(entries.get(i).getKey(), entries.get(i).getValue());
                    lastTransient = r.failure();
                } else {
                    refused.add(new Refused(entries.get(i).getValue(),
                            Rejection.of(Rejection.Reason.STORE_REJECTED, String.valueOf(r.failure()))));
                }
            }
            if (!todo.isEmpty()) {
                // The store is in trouble: hold on to these writes (and so stop pulling input) until it recovers.
                LOG.warn("{} cache writes still failing ({}); retrying in {} ms, input paused",
                        todo.size(), lastTransient, pauseMillis);
                Thread.sleep(pauseMillis);
                pauseMillis = Math.min(pauseMillis * 2, maxPause.toMillis());
            }
        }
        return refused;
    }

    private static WriteResult await(Future<WriteResult> f) throws InterruptedException {
        try {
            return f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("cache write crashed", e.getCause());
        }
    }
}
