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
package io.nearline.localcluster.clusterio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.events.DebeziumDecoder;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.SetOptions;
import io.nearline.jobs.kit.console.LinesFile;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.joinreference.JoinOutputs;
import io.nearline.localcluster.joinreplay.JoinKafka;
import io.nearline.localcluster.kit.options.WaitOption;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline collect cdc|tracking}: a cluster's topics into the replay's file forms. */
@Command(
        name = "collect",
        mixinStandardHelpOptions = true,
        description = "Read a job's output topics from a cluster into files.",
        subcommands = {CollectCommand.Cdc.class, CollectCommand.Tracking.class})
public final class CollectCommand implements Runnable {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public void run() {
        System.out.println(
                "usage: nearline collect cdc --out FILE | tracking --out-dir DIR [--cluster DIR] (see --help)");
    }

    @Command(
            name = "cdc",
            mixinStandardHelpOptions = true,
            description = {
                "Capture the cluster's CDC topic (Debezium's JSON records, cdc.format=debezium-json) into a JSON-lines "
                        + "file, one {\"key\":K,\"value\":V} per record, V null for a tombstone: partition by "
                        + "partition in offset order, so each key's records stay in order. 'replay cdc --format "
                        + "debezium' and 'publish cdc --format debezium' take the file as it is.",
                "%nReads committed records up to the topic's end when it starts; a record that is not JSON stops it "
                        + "(exit 2) naming its partition and offset.%n"
            })
    static final class Cdc implements Callable<Integer> {

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The capture to write.")
        Path out;

        @Option(names = "--topic", paramLabel = "TOPIC", description = "Another topic than the cluster's cdc.topic.")
        String topic;

        @Mixin
        ClusterOption cluster;

        @Mixin
        SetOptions sets;

        @Override
        public Integer call() throws IOException {
            ClusterFile c = cluster.read();
            CacheUpdaterSettings s = PublishCommand.cdcSettings(c, Map.of(), sets);
            String from = topic != null ? topic : s.cdcTopic();
            List<ConsumerRecord<byte[], byte[]>> records =
                    KafkaTopics.readToEnd(PublishCommand.kafka(c, sets), from, Duration.ofMinutes(10));
            List<String> lines = new ArrayList<>(records.size());
            long tombstones = 0;
            Map<String, Long> byTable = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                ObjectNode line = JSON.createObjectNode();
                line.set("key", json(r.key(), r, from));
                JsonNode value = json(r.value(), r, from);
                line.set("value", value);
                tombstones += r.value() == null ? 1 : 0;
                if (r.value() != null) {
                    String table = DebeziumDecoder.tableOfValue(value);
                    byTable.merge(table.isEmpty() ? "(no table named)" : table, 1L, Long::sum);
                }
                lines.add(line.toString());
            }
            LinesFile.write(out, lines);
            System.out.printf(
                    "collected %,d records (%,d tombstones) of %s on %s into %s%n",
                    records.size(), tombstones, from, s.bootstrapServers(), out);
            byTable.forEach((table, n) -> System.out.printf("  %-30s %,d records%n", table, n));
            return 0;
        }

        private static JsonNode json(byte[] bytes, ConsumerRecord<?, ?> r, String topic) {
            if (bytes == null) {
                return NullNode.getInstance();
            }
            try {
                return JSON.readTree(bytes);
            } catch (IOException notJson) {
                throw new ClusterException("the record at partition " + r.partition() + " offset " + r.offset()
                        + " of " + topic + " is not JSON: collect cdc captures Debezium's JSON records "
                        + "(a topic of cdc.format=debezium-json)");
            }
        }
    }

    @Command(
            name = "tracking",
            mixinStandardHelpOptions = true,
            description = {
                "Read the join's output topics into joined.jsonl, orphans.jsonl, late.jsonl and dead-letters.jsonl "
                        + "(the forms of 'replay join', sorted), comparable line for line with a replay.",
                "%nWith --wait, reads again until the outputs stop changing for 5 s (the join emits as windows "
                        + "close) or the time is up.%n"
            })
    static final class Tracking implements Callable<Integer> {

        @Option(names = "--out-dir", required = true, paramLabel = "DIR", description = "Where the files go.")
        Path outDir;

        @Mixin
        ClusterOption cluster;

        @Mixin
        WaitOption waitFor;

        @Mixin
        SetOptions sets;

        @Override
        public Integer call() throws InterruptedException {
            ClusterFile c = cluster.read();
            JoinSettings s = PublishCommand.joinSettings(c, sets);
            KafkaClient kafka = PublishCommand.kafka(c, sets);
            long deadline = waitFor.deadlineNanos();
            JoinOutputs outputs = JoinKafka.outputs(kafka, s);
            List<String> deadLetters = JoinKafka.deadLetters(kafka, s);
            long stableSince = System.nanoTime();
            while (System.nanoTime() < deadline
                    && System.nanoTime() - stableSince < Duration.ofSeconds(5).toNanos()) {
                Thread.sleep(1000);
                JoinOutputs again = JoinKafka.outputs(kafka, s);
                List<String> lettersAgain = JoinKafka.deadLetters(kafka, s);
                if (!again.equals(outputs)
                        || !lettersAgain.equals(deadLetters)
                        || again.joined().isEmpty()) {
                    stableSince = System.nanoTime();
                    System.err.printf(
                            "  collecting: %,d joined, %,d orphans, %,d late%n",
                            again.joined().size(),
                            again.orphans().size(),
                            again.late().size());
                }
                outputs = again;
                deadLetters = lettersAgain;
            }
            LinesFile.write(outDir.resolve("joined.jsonl"), outputs.joined());
            LinesFile.write(outDir.resolve("orphans.jsonl"), outputs.orphans());
            LinesFile.write(outDir.resolve("late.jsonl"), outputs.late());
            LinesFile.write(outDir.resolve("dead-letters.jsonl"), deadLetters);
            System.out.printf(
                    "collected %,d joined (%,d complete), %,d orphans, %,d late, %,d dead letters into %s%n",
                    outputs.joined().size(),
                    outputs.complete(),
                    outputs.orphans().size(),
                    outputs.late().size(),
                    deadLetters.size(),
                    outDir);
            return 0;
        }
    }
}
