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

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.JoinPartitions;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.joinreference.FullRecords;
import io.nearline.localcluster.joinreference.JoinOracle;
import io.nearline.localcluster.joinreference.JoinOutputs;
import io.nearline.localcluster.joinreference.TrackingGenerator;
import io.nearline.localcluster.joinreplay.JoinInputs;
import io.nearline.localcluster.joinreplay.JoinKafka;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The tracking join's load in a drill: the tracking generator's traffic (fan-outs over 8 index
 * nodes, some fragments dropped or sent twice, a few broker events lost) sent a second's worth of
 * requests at a time, then one closing request per partition far enough ahead in event time to close
 * every window. What the job has done is read from its joined topic.
 *
 * <p>The check: every request whose broker event was sent is joined exactly once. The engines deliver
 * output at least once, so a restarted job may write a join again: identical repeats are counted
 * ({@code repeatedOutputs}) and removed by request id, as a consumer of the joined topic would; two
 * different joins of one request are a real error ({@code duplicateJoins}).
 */
final class JoinLoad implements DrillLoad {

    private static final String END = "zz-end-";

    /** The most an event is delayed behind its request's start in the generated traffic. */
    private static final long MAX_DELAY_MILLIS = 500;

    /** How long after the last join the orphans and late lines may still be coming. */
    private static final Duration ORPHANS_SETTLE = Duration.ofSeconds(30);

    private final String bootstrap;
    private final JoinSettings settings;
    private final int partitions;
    private final Path traffic;
    private final Duration outputDelay;
    private final Set<String> withBroker = ConcurrentHashMap.newKeySet();
    private final AtomicLong sent = new AtomicLong();
    /** The job's outputs read so far: each request's distinct joins, every join read, the distinct orphans and late lines. */
    private final KafkaConsumer<byte[], byte[]> outputReader;

    private final Map<String, Set<String>> joins = new HashMap<>();
    private final Set<String> orphans = new TreeSet<>();
    private final Set<String> late = new TreeSet<>();
    private long joinsRead;

    /** What the join oracle says the job must output for the traffic as it was sent (null before the load). */
    private volatile JoinOutputs expected;

    /**
     * {@code outputDelay}: how long a join the job made may stay unseen by a reader of the joined topic
     * (Flink's transactional outputs are committed with each checkpoint; zero where outputs go out at once).
     */
    JoinLoad(String bootstrap, JoinSettings settings, Path traffic, Duration outputDelay) {
        this.bootstrap = bootstrap;
        this.settings = settings;
        this.traffic = traffic;
        this.outputDelay = outputDelay;
        this.partitions =
                KafkaTopics.endOffsets(bootstrap, settings.indexTopic()).size();
        if (partitions == 0) {
            throw new ClusterException(
                    "topic " + settings.indexTopic() + " does not exist: the join's deploy makes it");
        }
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); // a transactional job's aborted writes
        outputReader = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> outputs = new ArrayList<>();
        for (String topic : List.of(settings.joinedTopic(), settings.orphansTopic(), settings.lateTopic())) {
            KafkaTopics.endOffsets(bootstrap, topic).keySet().forEach(p -> outputs.add(new TopicPartition(topic, p)));
        }
        outputReader.assign(outputs);
        outputReader.seekToBeginning(outputs);
    }

    /** Reads what the job wrote since the last call (a few polls, until one brings nothing); returns the joins. */
    private synchronized Map<String, Set<String>> readJoins() {
        for (int polls = 0; polls < 20; polls++) {
            ConsumerRecords<byte[], byte[]> records = outputReader.poll(Duration.ofMillis(100));
            if (records.isEmpty()) {
                break;
            }
            for (ConsumerRecord<byte[], byte[]> r : records) {
                // whole records, read with Avro's generic reader apart from the job's codec
                if (r.topic().equals(settings.orphansTopic())) {
                    orphans.add(FullRecords.orphan(r.value()));
                } else if (r.topic().equals(settings.lateTopic())) {
                    late.add(FullRecords.late(r.value()));
                } else {
                    String joined = FullRecords.joined(r.value());
                    String requestId = FullRecords.requestId(joined);
                    if (!requestId.startsWith(END)) {
                        joins.computeIfAbsent(requestId, k -> new TreeSet<>()).add(joined);
                        joinsRead++;
                    }
                }
            }
        }
        return joins;
    }

    @Override
    public long run(int rate, int seconds, long seed) {
        int requests = rate * seconds;
        JoinInputs inputs;
        try {
            Files.createDirectories(traffic);
            new TrackingGenerator(requests, 8, 4, 0.02, 0.02, 0.01, MAX_DELAY_MILLIS, 0, 0, seed)
                    .write(traffic.resolve("index.jsonl"), traffic.resolve("broker.jsonl"));
            inputs = JoinInputs.read(traffic.resolve("index.jsonl"), traffic.resolve("broker.jsonl"))
                    .valid();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // a second's worth of requests at a time, each with its fragments and broker event
        Map<Integer, List<Events.Fragment>> fragments = new HashMap<>();
        Map<Integer, List<Events.BrokerEvent>> brokers = new HashMap<>();
        long newest = 0;
        for (Events.Fragment f : inputs.fragments()) {
            fragments
                    .computeIfAbsent(second(f.requestId(), rate), k -> new ArrayList<>())
                    .add(f);
            newest = Math.max(newest, f.ts());
        }
        for (Events.BrokerEvent b : inputs.brokers()) {
            brokers.computeIfAbsent(second(b.requestId(), rate), k -> new ArrayList<>())
                    .add(b);
            newest = Math.max(newest, b.ts());
        }
        expected = oracle(fragments, brokers, seconds);
        long t0 = System.nanoTime();
        for (int s = 0; s < seconds; s++) {
            long wait = t0 + s * 1_000_000_000L - System.nanoTime();
            if (wait > 0) {
                Daemons.sleep(wait / 1_000_000);
            }
            List<Events.BrokerEvent> b = brokers.getOrDefault(s, List.of());
            JoinKafka.send(
                    KafkaClient.plaintext(bootstrap),
                    settings,
                    partitions,
                    new JoinInputs(fragments.getOrDefault(s, List.of()), b, List.of()),
                    () -> {});
            b.forEach(x -> withBroker.add(x.requestId()));
            sent.addAndGet(rate);
        }
        sendEndOfTraffic(newest);
        return requests;
    }

    /**
     * The join oracle's outputs for the traffic in the order it is sent (a second's requests at a time,
     * each topic in its own order), the end of the traffic left out: the oracle closes every window at
     * the end of its input, as the end requests make the job do.
     */
    private JoinOutputs oracle(
            Map<Integer, List<Events.Fragment>> fragments,
            Map<Integer, List<Events.BrokerEvent>> brokers,
            int seconds) {
        List<Events.Fragment> index = new ArrayList<>();
        List<Events.BrokerEvent> broker = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            index.addAll(fragments.getOrDefault(s, List.of()));
            broker.addAll(brokers.getOrDefault(s, List.of()));
        }
        JoinOutputs outputs = JoinOracle.expected(
                index,
                broker,
                partitions,
                settings.window().toMillis(),
                settings.allowedLateness().toMillis());
        return settings.emitComplete() == JoinSettings.EmitComplete.EAGER ? outputs.repeatsFolded() : outputs;
    }

    /**
     * The end of the traffic: one request per partition, with event time far enough past {@code newest}
     * to close every window (an event waits for the watermark, and a window closes a lateness after it
     * ends: margin on both).
     */
    private void sendEndOfTraffic(long newest) {
        long end = newest
                + settings.window().toMillis()
                + 2 * settings.allowedLateness().toMillis()
                + 5000;
        List<Events.Fragment> endFragments = new ArrayList<>();
        List<Events.BrokerEvent> endBrokers = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            String id = null;
            for (int i = 0; id == null; i++) {
                id = JoinPartitions.of(END + i, partitions) == p ? END + i : null;
            }
            endFragments.add(new Events.Fragment(id, "index-0", end, List.of()));
            endBrokers.add(new Events.BrokerEvent(id, end, Set.of("index-0"), "drill", List.of(), "end"));
        }
        JoinKafka.send(
                KafkaClient.plaintext(bootstrap),
                settings,
                partitions,
                new JoinInputs(endFragments, endBrokers, List.of()),
                () -> {});
    }

    /** The second of the load a generated request ({@code req-N}) goes out in. */
    private static int second(String requestId, int rate) {
        return Integer.parseInt(requestId.substring("req-".length())) / rate;
    }

    @Override
    public Reading sample() {
        Map<String, Set<String>> joins = readJoins();
        long joined = withBroker.stream().filter(joins::containsKey).count();
        return new Reading(sent.get(), joined, Math.max(0, withBroker.size() - joined), null);
    }

    /**
     * Keeping pace: no more requests open than the job holds by design, counted in event time (the
     * generator starts 100 requests an event second, whatever the load's rate): a complete request waits
     * for the watermark (the lateness, the events' delay, a second's margin), a partial one for its
     * window to close (a tenth of requests: 2 % of fragments dropped over fan-outs up to 4, 1 % of broker
     * events lost); plus the second of load in flight, and what the output delay holds back.
     */
    @Override
    public long steadyBacklog(int rate) {
        long perEventSecond = 1_000_000 / TrackingGenerator.DEFAULT_SPACING_MICROS;
        long waitMillis = settings.allowedLateness().toMillis() + MAX_DELAY_MILLIS + 1000;
        return rate
                + rate * outputDelay.toMillis() / 1000
                + perEventSecond * waitMillis / 1000
                + perEventSecond * settings.window().toMillis() / 1000 / 10;
    }

    @Override
    public Verdict.Checked check(long deadlineNanos) throws InterruptedException {
        long allJoinedAt = 0;
        while (true) {
            Map<String, Set<String>> joins = readJoins();
            long lost = withBroker.stream().filter(id -> !joins.containsKey(id)).count();
            // orphans and late lines go out as windows close, which may be after the last join: once every
            // request is joined, they get ORPHANS_SETTLE to match the oracle
            if (lost == 0 && allJoinedAt == 0) {
                allJoinedAt = System.nanoTime();
            }
            boolean settled = allJoinedAt != 0
                    && (System.nanoTime() - allJoinedAt > ORPHANS_SETTLE.toNanos() || matchesOracle(joins));
            if (settled || System.nanoTime() > deadlineNanos) {
                long once = withBroker.stream()
                        .filter(id -> joins.getOrDefault(id, Set.of()).size() == 1)
                        .count();
                long different = withBroker.stream()
                        .filter(id -> joins.getOrDefault(id, Set.of()).size() > 1)
                        .count();
                long distinct = joins.values().stream().mapToLong(Set::size).sum();
                long repeats = joinsRead - distinct;
                Map<String, Long> oracle = againstOracle(joins);
                long mismatches =
                        oracle.values().stream().mapToLong(Long::longValue).sum();
                return new Verdict.Checked(
                        null,
                        null,
                        (long) withBroker.size(),
                        once,
                        different,
                        lost,
                        repeats,
                        oracle,
                        String.format(
                                "requests with a broker event %,d, joined once %,d, joined differently twice %,d, "
                                        + "lost %,d; %,d identical repeats removed; against the join oracle: %s",
                                withBroker.size(),
                                once,
                                different,
                                lost,
                                repeats,
                                mismatches == 0 ? "every joined, orphan and late output as expected" : oracle));
            }
            Thread.sleep(2000);
        }
    }

    private boolean matchesOracle(Map<String, Set<String>> joins) {
        return againstOracle(joins).values().stream().allMatch(n -> n == 0);
    }

    /**
     * The outputs read (identical repeats counted once) against the oracle's: for the joined, orphan
     * and late outputs, how many it expected and were not written, and how many were written and not
     * expected. A join with wrong contents counts on both sides.
     */
    private synchronized Map<String, Long> againstOracle(Map<String, Set<String>> joins) {
        Set<String> joined = new TreeSet<>();
        joins.values().forEach(joined::addAll);
        Map<String, Long> m = new LinkedHashMap<>();
        differences("joined", withoutEnd(expected.joined()), joined, m);
        differences("orphans", withoutEnd(expected.orphans()), withoutEnd(orphans), m);
        differences("late", withoutEnd(expected.late()), withoutEnd(late), m);
        return m;
    }

    private static void differences(String output, Set<String> expected, Set<String> actual, Map<String, Long> m) {
        m.put(
                output + "Missing",
                expected.stream().filter(x -> !actual.contains(x)).count());
        m.put(
                output + "Unexpected",
                actual.stream().filter(x -> !expected.contains(x)).count());
    }

    private static Set<String> withoutEnd(Collection<String> lines) {
        Set<String> out = new TreeSet<>();
        lines.stream().filter(l -> !l.contains("\"" + END)).forEach(out::add);
        return out;
    }

    @Override
    public String describe(int rate, int seconds, long seed) {
        return String.format(
                "The tracking join took %,d requests at %d/s for %d s (8 index nodes, fan-out up to 4, seed %d).",
                (long) rate * seconds, rate, seconds, seed);
    }

    @Override
    public long sent() {
        return sent.get();
    }

    @Override
    public long sendFailures() {
        return 0; // a send that fails throws, and the run with it
    }

    @Override
    public synchronized void close() {
        outputReader.close();
    }
}
