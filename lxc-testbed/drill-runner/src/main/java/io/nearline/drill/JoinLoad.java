package io.nearline.drill;

import io.nearline.localcluster.cluster.ClusterException;
import io.nearline.localcluster.cluster.Daemons;
import io.nearline.localcluster.kit.KafkaClient;
import io.nearline.localcluster.kit.KafkaTopics;
import io.nearline.localcluster.replay.join.JoinInputs;
import io.nearline.localcluster.replay.join.JoinKafka;
import io.nearline.tracking.join.Events;
import io.nearline.tracking.join.JoinPartitions;
import io.nearline.tracking.join.JoinSettings;
import io.nearline.tracking.join.TrackingCodec;
import io.nearline.tracking.join.TrackingText;
import io.nearline.tracking.reference.TrackingGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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

    private final String bootstrap;
    private final JoinSettings settings;
    private final int partitions;
    private final Path traffic;
    private final Duration outputDelay;
    private final Set<String> withBroker = ConcurrentHashMap.newKeySet();
    private final AtomicLong sent = new AtomicLong();
    /** The joined topic read so far: each request's distinct joins, and every join read. */
    private final KafkaConsumer<byte[], byte[]> joinedReader;

    private final Map<String, Set<String>> joins = new HashMap<>();
    private long joinsRead;

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
        joinedReader = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> joined = KafkaTopics.endOffsets(bootstrap, settings.joinedTopic()).keySet().stream()
                .map(p -> new TopicPartition(settings.joinedTopic(), p))
                .toList();
        joinedReader.assign(joined);
        joinedReader.seekToBeginning(joined);
    }

    /** Reads what the job joined since the last call (a few polls, until one brings nothing). */
    private synchronized Map<String, Set<String>> readJoins() {
        for (int polls = 0; polls < 20; polls++) {
            ConsumerRecords<byte[], byte[]> records = joinedReader.poll(Duration.ofMillis(100));
            if (records.isEmpty()) {
                break;
            }
            for (ConsumerRecord<byte[], byte[]> r : records) {
                try {
                    Events.Joined j = TrackingCodec.decodeJoined(r.value());
                    if (!j.requestId().startsWith(END)) {
                        joins.computeIfAbsent(j.requestId(), k -> new TreeSet<>())
                                .add(TrackingText.format(j));
                        joinsRead++;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("a join the job wrote does not decode", e);
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
        while (true) {
            Map<String, Set<String>> joins = readJoins();
            long lost = withBroker.stream().filter(id -> !joins.containsKey(id)).count();
            if (lost == 0 || System.nanoTime() > deadlineNanos) {
                long once = withBroker.stream()
                        .filter(id -> joins.getOrDefault(id, Set.of()).size() == 1)
                        .count();
                long different = withBroker.stream()
                        .filter(id -> joins.getOrDefault(id, Set.of()).size() > 1)
                        .count();
                long distinct = joins.values().stream().mapToLong(Set::size).sum();
                long repeats = joinsRead - distinct;
                return new Verdict.Checked(
                        null,
                        null,
                        (long) withBroker.size(),
                        once,
                        different,
                        lost,
                        repeats,
                        String.format(
                                "requests with a broker event %,d, joined once %,d, joined differently twice %,d, "
                                        + "lost %,d; %,d identical repeats removed",
                                withBroker.size(), once, different, lost, repeats));
            }
            Thread.sleep(2000);
        }
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
        joinedReader.close();
    }
}
