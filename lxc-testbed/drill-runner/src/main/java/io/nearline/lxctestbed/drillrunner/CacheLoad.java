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
package io.nearline.lxctestbed.drillrunner;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.events.ChangeEventCodec;
import io.nearline.common.schema.InMemorySchemaRegistry;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.common.version.Version;
import io.nearline.jobs.checker.CacheView;
import io.nearline.jobs.checker.DivergenceChecker;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.sourcesimulator.SourceOfTruth;
import io.nearline.localcluster.sourcesimulator.Workload;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The cache updater's load in a drill: a source-of-truth database committing at a steady rate, its
 * change stream sent to the job's CDC topic, and the cache read back key by key. Every key of a run
 * carries the run's prefix, so runs never see each other's entries in the shared store.
 *
 * <p>What the job has done is measured at the store, the same way for both engines: a commit counts
 * as applied once its key's cached version has reached it, so {@link #sample()} gives the applied
 * count (its change per second is the job's throughput), the backlog of commits sent but not yet in
 * the cache, and the staleness of each key that is behind (the age of its oldest commit not applied).
 */
final class CacheLoad implements DrillLoad {

    /** Keys enough that a load near the job's baseline spreads over many, as production traffic does. */
    private static final int KEYS = 10_000;

    private record Commit(Version version, long millis) {}

    private final String prefix;
    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;
    private final CacheStore store;
    private final SourceOfTruth sot;
    private final Map<CacheKey, List<Commit>> commits = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong sendFailures = new AtomicLong();

    CacheLoad(String prefix, String bootstrap, String topic, CacheStore store) {
        this.prefix = prefix;
        this.topic = topic;
        this.store = store;
        this.producer = KafkaTopics.producer(bootstrap);
        this.sot = new SourceOfTruth(8, new InMemorySchemaRegistry(), Clock.systemUTC(), this::publish);
    }

    /** Commits {@code rate} changes a second over the keys for {@code seconds}; returns the commits. */
    @Override
    public long run(int rate, int seconds, long seed) {
        long n = new Workload(KEYS, (long) rate * seconds, 0.8, 0.1, -1, rate)
                .run(sot, new Random(seed), Duration.ofSeconds(seconds + 60L));
        producer.flush();
        return n;
    }

    private void publish(ChangeEvent event) {
        CacheKey key = CacheKey.of(event.getKey());
        commits.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>()))
                .add(new Commit(Version.of(event.getScn(), event.getSchemaVersion()), event.getCommitTimeMillis()));
        event.setKey(prefix + event.getKey()); // the source of truth made this event for us alone
        producer.send(
                new ProducerRecord<>(
                        topic, event.getKey().getBytes(StandardCharsets.UTF_8), ChangeEventCodec.encode(event)),
                (meta, error) -> {
                    if (error == null) {
                        sent.incrementAndGet();
                    } else {
                        sendFailures.incrementAndGet();
                    }
                });
    }

    @Override
    public String describe(int rate, int seconds, long seed) {
        return String.format(
                "The cache updater took %,d commits at %,d/s for %d s over %,d keys (seed %d).",
                (long) rate * seconds, rate, seconds, KEYS, seed);
    }

    @Override
    public long sent() {
        return sent.get();
    }

    @Override
    public long sendFailures() {
        return sendFailures.get();
    }

    /** Keeping pace: less than a second of commits not yet in the cache. */
    @Override
    public long steadyBacklog(int rate) {
        return rate;
    }

    /** Reads every key's cached version once; all nulls when the store does not answer. */
    @Override
    public Reading sample() {
        long sentNow = sent.get();
        long now = System.currentTimeMillis();
        long applied = 0;
        long committed = 0;
        List<Long> staleness = new ArrayList<>();
        try {
            for (Map.Entry<CacheKey, List<Commit>> e : commits.entrySet()) {
                List<Commit> list;
                synchronized (e.getValue()) {
                    list = List.copyOf(e.getValue());
                }
                Version cached = cached(e.getKey()).map(CacheRecord::version).orElse(Version.NONE);
                int done = 0;
                while (done < list.size() && list.get(done).version().compareTo(cached) <= 0) {
                    done++;
                }
                applied += done;
                committed += list.size();
                staleness.add(
                        done < list.size() ? Math.max(0, now - list.get(done).millis()) : 0L);
            }
        } catch (StoreException e) {
            return new Reading(sentNow, null, null, null);
        }
        long[] sorted = staleness.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Reading(
                sentNow,
                applied,
                Math.max(0, committed - applied),
                sorted.length == 0 ? 0 : DivergenceChecker.Report.percentile(sorted, 99));
    }

    /** Every key against the source of truth, again until it converges or the deadline passes. */
    @Override
    public Verdict.Checked check(long deadlineNanos) throws InterruptedException {
        DivergenceChecker.Report report;
        try {
            report = DivergenceChecker.checkUntil(sot, this::cached, deadlineNanos, Duration.ofSeconds(1), r -> {});
        } catch (StoreException e) {
            throw ClusterException.failed("the store did not answer the final check: " + e.getMessage());
        }
        return new Verdict.Checked(
                report.keysChecked(),
                (long) report.divergent().size(),
                null,
                null,
                null,
                null,
                null,
                null,
                report.summary());
    }

    private Optional<CacheRecord> cached(CacheKey key) {
        return CacheView.of(store).get(CacheKey.of(prefix + key.value()));
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
        store.close();
    }
}
