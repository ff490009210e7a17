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
package io.nearline.feedtrackingjoin.flink;

import io.nearline.common.config.Config;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.feedtrackingjoin.core.testkit.HandWrittenRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The join as {@link TrackingJoinJob#define} wires it, on a Flink MiniCluster in this module: the
 * requests of {@link HandWrittenRequests}, read by the source's own deserializer, end as each must.
 * (The conformance suites in local-cluster hold the job to the reference run on generated traffic with
 * a real broker; this holds the wiring: routes, watermarks, the join and its four outputs.)
 */
class TrackingJoinJobIT {

    /** What each output sink received, by output. */
    private static final Map<String, ConcurrentLinkedQueue<KafkaOutput>> OUT = new ConcurrentHashMap<>();

    /** An output sink keeping what the job sends in this JVM. */
    static final class Collected implements Sink<KafkaOutput> {
        private final String output;

        Collected(String output) {
            this.output = output;
        }

        @Override
        public SinkWriter<KafkaOutput> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(KafkaOutput record, Context c) {
                    OUT.computeIfAbsent(output, o -> new ConcurrentLinkedQueue<>())
                            .add(record);
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    @Timeout(120)
    @Test
    void eachHandWrittenRequestEndsAsItMust() throws Exception {
        JoinSettings settings = JoinSettings.from(Config.of(Map.of(
                "kafka.bootstrap-servers", "127.0.0.1:9", // the test's I/O is given: no broker is reached
                "join.output.delivery", "at-least-once")));

        OUT.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        TrackingJoinJob.define(
                env,
                new TrackingJoinIo(
                        source(settings.indexTopic(), HandWrittenRequests.index(), settings),
                        source(settings.brokerTopic(), HandWrittenRequests.brokers(), settings),
                        new Collected("joined"),
                        new Collected("orphans"),
                        new Collected("late"),
                        new Collected("dead-letters")),
                settings);
        env.execute("tracking-join-job-test");

        Map<String, List<byte[]>> joined = new TreeMap<>();
        output("joined").forEach(o -> joined.computeIfAbsent(o.key, k -> new ArrayList<>())
                .add(o.value));
        HandWrittenRequests.assertOutputs(
                joined, values("orphans"), values("late"), values("dead-letters"), settings.indexTopic());
    }

    private static List<KafkaOutput> output(String name) {
        return new ArrayList<>(OUT.getOrDefault(name, new ConcurrentLinkedQueue<>()));
    }

    private static List<byte[]> values(String name) {
        return output(name).stream().map(o -> o.value).toList();
    }

    /**
     * One partition of {@code topic} as a bounded source: its values read by the source's own
     * deserializer, in offset order, on the task (its records are no Java-serializable objects).
     */
    private static DataGeneratorSource<TrackingInput> source(String topic, List<byte[]> values, JoinSettings s) {
        return new DataGeneratorSource<>(
                new Partition(
                        topic,
                        new ArrayList<>(values),
                        s.brokerTopic(),
                        s.allowedLateness().toMillis()),
                values.size(),
                TypeInformation.of(TrackingInput.class));
    }

    /** The records of one partition, deserialized once where the source runs. */
    private static final class Partition implements GeneratorFunction<Long, TrackingInput> {
        private final String topic;
        private final ArrayList<byte[]> values;
        private final String brokerTopic;
        private final long allowedLatenessMillis;
        private transient List<TrackingInput> read;

        Partition(String topic, ArrayList<byte[]> values, String brokerTopic, long allowedLatenessMillis) {
            this.topic = topic;
            this.values = values;
            this.brokerTopic = brokerTopic;
            this.allowedLatenessMillis = allowedLatenessMillis;
        }

        @Override
        public TrackingInput map(Long offset) {
            if (read == null) {
                InputDeserializer deserializer = new InputDeserializer(brokerTopic, allowedLatenessMillis);
                deserializer.open(null);
                List<TrackingInput> out = new ArrayList<>();
                Collector<TrackingInput> into = new Collector<>() {
                    @Override
                    public void collect(TrackingInput record) {
                        out.add(record);
                    }

                    @Override
                    public void close() {}
                };
                for (int i = 0; i < values.size(); i++) {
                    deserializer.deserialize(new ConsumerRecord<>(topic, 0, i, null, values.get(i)), into);
                }
                read = out;
            }
            return read.get(offset.intValue());
        }
    }
}
