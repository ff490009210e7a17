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
package io.nearline.feedtrackingjoin.samza;

import io.nearline.feedtrackingjoin.core.TrackingCodec;
import io.nearline.feedtrackingjoin.core.testkit.HandWrittenRequests;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.samza.operators.KV;
import org.apache.samza.serializers.NoOpSerde;
import org.apache.samza.test.framework.TestRunner;
import org.apache.samza.test.framework.system.descriptors.InMemoryInputDescriptor;
import org.apache.samza.test.framework.system.descriptors.InMemoryOutputDescriptor;
import org.apache.samza.test.framework.system.descriptors.InMemorySystemDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task as {@link JoinApp} wires it, on Samza's in-memory TestRunner in this module, bounded as a
 * replay runs it: the requests of {@link HandWrittenRequests} end as each must, in its RocksDB state
 * store. (The conformance suites in local-cluster hold the job to the reference run on generated
 * traffic with a real broker; this holds the task's wiring.)
 */
class JoinTaskTest {

    @Timeout(120)
    @Test
    void eachHandWrittenRequestEndsAsItMust(@TempDir Path dir) throws Exception {
        List<byte[]> index = HandWrittenRequests.index();
        List<byte[]> brokers = HandWrittenRequests.brokers();
        Map<String, String> settings = new HashMap<>(Map.of(
                "kafka.bootstrap-servers", "127.0.0.1:9", // the in-memory system stands in for Kafka
                "tracking.index-topic", "index",
                "tracking.broker-topic", "broker",
                "tracking.joined-topic", "joined",
                "tracking.orphans-topic", "orphans",
                "tracking.late-topic", "late",
                "tracking.dead-letter-topic", "deadletters"));
        settings.putAll(Map.of(
                "serializers.registry.string.class", "org.apache.samza.serializers.StringSerdeFactory",
                "serializers.registry.bytes.class", "org.apache.samza.serializers.ByteSerdeFactory",
                "stores.join-state.factory", "org.apache.samza.storage.kv.RocksDbKeyValueStorageEngineFactory",
                "stores.join-state.key.serde", "string",
                "stores.join-state.msg.serde", "bytes",
                "stores.join-state.object.cache.size", "0",
                "job.logged.store.base.dir", dir.resolve("logged").toString(),
                "job.non-logged.store.base.dir", dir.resolve("stores").toString()));

        InMemorySystemDescriptor kafka = new InMemorySystemDescriptor(JoinApp.SYSTEM);
        InMemoryInputDescriptor<KV<byte[], byte[]>> indexIn = kafka.getInputDescriptor("index", new NoOpSerde<>());
        InMemoryInputDescriptor<KV<byte[], byte[]>> brokerIn = kafka.getInputDescriptor("broker", new NoOpSerde<>());
        Map<String, InMemoryOutputDescriptor<byte[]>> out = new TreeMap<>();
        for (String output : List.of("joined", "orphans", "late", "deadletters")) {
            out.put(output, kafka.getOutputDescriptor(output, new NoOpSerde<>()));
        }
        // bounded, as a replay: each input's end offset, so the task flushes every window when it reaches it
        Map<String, Map<Integer, Long>> ends =
                Map.of("index", Map.of(0, (long) index.size()), "broker", Map.of(0, (long) brokers.size()));
        TestRunner runner = TestRunner.of(new JoinApp(ends))
                .addConfig(settings)
                .addInputStream(indexIn, Map.of(0, messages(index)))
                .addInputStream(brokerIn, Map.of(0, messages(brokers)));
        out.values().forEach(o -> runner.addOutputStream(o, 1));
        runner.run(Duration.ofSeconds(60));

        // the in-memory system hands back values only: each joined event filed under its own request
        Map<String, List<byte[]>> joined = new TreeMap<>();
        for (byte[] value : values(out.get("joined"))) {
            joined.computeIfAbsent(TrackingCodec.decodeJoined(value).requestId(), k -> new ArrayList<>())
                    .add(value);
        }
        HandWrittenRequests.assertOutputs(
                joined, values(out.get("orphans")), values(out.get("late")), values(out.get("deadletters")), "index");
    }

    private static List<KV<byte[], byte[]>> messages(List<byte[]> values) {
        List<KV<byte[], byte[]>> out = new ArrayList<>();
        values.forEach(v -> out.add(KV.of(null, v)));
        return out;
    }

    private static List<byte[]> values(InMemoryOutputDescriptor<byte[]> output) throws InterruptedException {
        List<byte[]> out = new ArrayList<>();
        for (List<?> partition :
                TestRunner.consumeStream(output, Duration.ofSeconds(10)).values()) {
            partition.forEach(m -> out.add((byte[]) m));
        }
        return out;
    }
}
