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
package io.nearline.localcluster.joinreference;

import io.nearline.feedtrackingjoin.core.Events;
import io.nearline.feedtrackingjoin.core.TrackingText;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Realistic tracking traffic for the join: many index nodes, fan-outs of 1 to {@code maxFanout}
 * nodes, fragments and broker events delayed independently (so the broker event comes before or
 * after the fragments), some fragments dropped or sent twice, a few requests whose broker event is
 * lost, and a few fragments sent once more long after (late: beyond any sensible allowed lateness).
 * Writes the two streams as JSON lines, each in arrival order. Same seed, same files.
 */
public record TrackingGenerator(
        int requests,
        int nodes,
        int maxFanout,
        double dropRatio,
        double duplicateRatio,
        double lostBrokerRatio,
        long maxDelayMillis,
        double lateRatio,
        long lateDelayMillis,
        long seed) {

    private static final String[] FEATURES = {"affinity", "freshness", "ctr"};

    public TrackingGenerator {
        if (requests < 0 || nodes < 1 || maxDelayMillis < 0 || lateDelayMillis < 0) {
            throw new IllegalArgumentException(
                    "--requests, --max-delay-ms and --late-delay-ms must be >= 0 and --nodes >= 1");
        }
        if (maxFanout < 1 || maxFanout > nodes) {
            throw new IllegalArgumentException(
                    "--max-fanout " + maxFanout + " must be between 1 and --nodes (" + nodes + ")");
        }
    }

    /** What was written, for the caller's summary. */
    public record Written(long fragments, long brokerEvents) {}

    /** Event time between the starts of two requests, unless a caller sets its own: 100 requests an event second. */
    public static final long DEFAULT_SPACING_MICROS = 10_000;

    public Written write(Path indexFile, Path brokerFile) {
        return write(indexFile, brokerFile, DEFAULT_SPACING_MICROS);
    }

    /** The traffic with a request starting every {@code requestSpacingMicros} of event time. */
    public Written write(Path indexFile, Path brokerFile, long requestSpacingMicros) {
        if (requestSpacingMicros < 1) {
            throw new IllegalArgumentException("the spacing of requests must be at least 1 µs");
        }
        Random random = new Random(seed);
        List<Timed> index = new ArrayList<>();
        List<Timed> broker = new ArrayList<>();
        for (int r = 0; r < requests; r++) {
            String id = "req-" + r;
            long t0 = 1_700_000_000_000L + r * requestSpacingMicros / 1000;
            TreeSet<String> fanout = new TreeSet<>();
            int fan = 1 + random.nextInt(maxFanout);
            while (fanout.size() < fan) {
                fanout.add("index-" + random.nextInt(nodes));
            }
            for (String node : fanout) {
                if (random.nextDouble() < dropRatio) {
                    continue;
                }
                long ts = t0 + random.nextInt(20);
                String line = TrackingText.format(new Events.Fragment(id, node, ts, docs(random, node)));
                index.add(new Timed(ts + delay(random), line));
                if (random.nextDouble() < duplicateRatio) {
                    index.add(new Timed(ts + delay(random), line));
                }
                if (random.nextDouble() < lateRatio) {
                    index.add(new Timed(ts + lateDelayMillis + delay(random), line));
                }
            }
            if (random.nextDouble() >= lostBrokerRatio) {
                long ts = t0 + 20 + random.nextInt(10);
                broker.add(new Timed(
                        ts + delay(random),
                        TrackingText.format(new Events.BrokerEvent(
                                id,
                                ts,
                                fanout,
                                "viewer-" + random.nextInt(100_000),
                                new ArrayList<>(fanout),
                                "model-3"))));
            }
        }
        writeSorted(indexFile, index);
        writeSorted(brokerFile, broker);
        return new Written(index.size(), broker.size());
    }

    /** Two scored documents with the model's features, as an index node reports them. */
    private static List<Events.ScoredDoc> docs(Random random, String node) {
        List<Events.ScoredDoc> docs = new ArrayList<>(2);
        for (int i = 0; i < 2; i++) {
            Map<String, Double> features = new TreeMap<>();
            for (String feature : FEATURES) {
                features.put(feature, Math.round(random.nextDouble() * 1000) / 1000.0);
            }
            docs.add(new Events.ScoredDoc(
                    node + "/doc-" + random.nextInt(1000), Math.round(random.nextDouble() * 1e6) / 1e6, features));
        }
        return docs;
    }

    private long delay(Random random) {
        return maxDelayMillis == 0
                ? 0
                : (long) (Math.abs(random.nextGaussian()) * maxDelayMillis / 3) % (maxDelayMillis + 1);
    }

    private record Timed(long arrival, String line) {}

    private static void writeSorted(Path file, List<Timed> lines) {
        lines.sort(Comparator.comparingLong(Timed::arrival));
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Timed t : lines) {
                out.write(t.line());
                out.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
