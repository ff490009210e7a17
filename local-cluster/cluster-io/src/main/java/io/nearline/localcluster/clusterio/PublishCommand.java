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

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.SetOptions;
import io.nearline.jobs.kit.console.CliErrors;
import io.nearline.jobs.kit.console.Progress;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.localcluster.cdcreference.ReplayInput;
import io.nearline.localcluster.cdcreplay.KafkaReplay;
import io.nearline.localcluster.cdcreplay.ReplayCdcOptions;
import io.nearline.localcluster.joinreplay.JoinInputs;
import io.nearline.localcluster.joinreplay.JoinKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline publish cdc}: JSON-lines input onto a cluster's topics. */
@Command(
        name = "publish",
        mixinStandardHelpOptions = true,
        description = "Send JSON-lines input to a cluster's topics.",
        subcommands = {PublishCommand.Cdc.class, PublishCommand.Snapshot.class, PublishCommand.Tracking.class})
public final class PublishCommand implements Runnable {

    @Override
    public void run() {
        System.out.println("usage: nearline publish cdc|snapshot|tracking ... [--cluster DIR] (see --help)");
    }

    @Command(
            name = "cdc",
            mixinStandardHelpOptions = true,
            description = {
                "Send a change log (JSON lines, the form replay cdc reads) to the cluster's CDC topic, keyed by the "
                        + "cache key. A line that is not a change event goes to the dead-letter topic with its "
                        + "file:line; events that break the rules are sent as they are, for the job to reject.",
                "%nWith --format debezium the lines are Debezium's records (an envelope, or {\"key\":K,\"value\":V} "
                        + "as 'collect cdc' writes them), sent as they are for a job with cdc.format=debezium-json.%n"
            })
    static final class Cdc implements Callable<Integer> {

        @Option(names = "--events", required = true, paramLabel = "FILE", description = "The change log; repeatable.")
        List<Path> events;

        @Option(
                names = "--format",
                defaultValue = "nearline",
                description = "Form of the change log: nearline (this project's text form) or debezium (Debezium's "
                        + "records). Default: ${DEFAULT-VALUE}.")
        ReplayCdcOptions.Format format;

        @Mixin
        ClusterOption cluster;

        @Mixin
        SetOptions sets;

        @Override
        public Integer call() {
            ClusterFile c = cluster.read();
            CacheUpdaterSettings s =
                    cdcSettings(c, Map.of(CacheUpdaterSettings.CDC_FORMAT.name(), format.configValue()), sets);
            List<ReplayInput.Line> lines = ReplayInput.read(events, s.decoder());
            KafkaReplay.Sent sent;
            try (Progress progress = new Progress("lines sent", lines.size(), System.err)) {
                sent = KafkaReplay.send(kafka(c, sets), s.cdcTopic(), s.deadLetterTopic(), lines, progress::step);
            }
            System.out.printf(
                    "published %,d change events for %,d keys to %s on %s; %,d bad lines dead-lettered to %s%n",
                    sent.events(),
                    sent.keys().size(),
                    s.cdcTopic(),
                    s.bootstrapServers(),
                    sent.deadLettered(),
                    s.deadLetterTopic());
            return 0;
        }
    }

    @Command(
            name = "snapshot",
            mixinStandardHelpOptions = true,
            description = {
                "Publish a snapshot to the cluster's bootstrap topic, as 'bootstrap run' does (markers with the "
                        + "CDC topic's end offsets, rows in verified chunks, resumable from DIR/bootstrap/), for the "
                        + "bootstrapper or a cache updater with bootstrap.enabled=true."
            })
    static final class Snapshot implements Callable<Integer> {

        @Option(names = "--snapshot", required = true, paramLabel = "SNAPSHOT.jsonl", description = "The snapshot.")
        Path snapshot;

        @Mixin
        ClusterOption cluster;

        @Mixin
        SetOptions sets;

        @Override
        public Integer call() throws Exception {
            ClusterFile c = cluster.read();
            Path state = Files.createDirectories(c.dir().resolve("bootstrap"));
            CacheUpdaterSettings s = cdcSettings(c, Map.of(), sets);
            KafkaClient kafka = kafka(c, sets);
            int partitions =
                    Math.max(1, KafkaTopics.endOffsets(kafka, s.cdcTopic()).size());
            List<String> args = new ArrayList<>(List.of(
                    "run",
                    "--snapshot",
                    snapshot.toString(),
                    "--partitions",
                    Integer.toString(partitions),
                    "--cdc-topic",
                    s.cdcTopic(),
                    "--state",
                    state.resolve("schedule.state").toString(),
                    "--progress",
                    state.resolve(snapshot.getFileName() + ".progress").toString()));
            kafka.settings().forEach((key, value) -> args.addAll(List.of("--set", key + "=" + value)));
            sets.values().forEach(set -> args.addAll(List.of("--set", set)));
            return CliErrors.install(new CommandLine(new BootstrapCommand())).execute(args.toArray(String[]::new));
        }
    }

    @Command(
            name = "tracking",
            mixinStandardHelpOptions = true,
            description = {
                "Send feed tracking traffic (the JSON-lines form 'generate tracking' writes) to the join's index and "
                        + "broker topics, each request to the same partition of both. Bad lines go to the join's "
                        + "dead-letter topic with their file:line."
            })
    static final class Tracking implements Callable<Integer> {

        @Option(names = "--index", required = true, paramLabel = "FILE", description = "Index-node fragments.")
        Path index;

        @Option(names = "--broker", required = true, paramLabel = "FILE", description = "Broker events.")
        Path broker;

        @Mixin
        ClusterOption cluster;

        @Mixin
        SetOptions sets;

        @Override
        public Integer call() {
            ClusterFile c = cluster.read();
            JoinSettings s = joinSettings(c, sets);
            KafkaClient kafka = kafka(c, sets);
            JoinInputs inputs = JoinInputs.read(index, broker);
            // partitioned as the topic is: the job's deploy created it (else one partition per request stream)
            int partitions = KafkaTopics.endOffsets(kafka, s.indexTopic()).size();
            if (partitions == 0) {
                throw new ClusterException("topic " + s.indexTopic() + " does not exist on " + s.bootstrapServers()
                        + ": deploy the join first (jobs/deploy/tracking-join-flink-session.yaml)");
            }
            long sent;
            try (Progress progress = new Progress(
                    "events sent", inputs.events() + inputs.badLines().size(), System.err)) {
                sent = JoinKafka.send(kafka, s, partitions, inputs, progress::step);
            }
            System.out.printf(
                    "published %,d tracking events to %s and %s (%d partitions); %,d bad lines dead-lettered%n",
                    sent,
                    s.indexTopic(),
                    s.brokerTopic(),
                    partitions,
                    inputs.badLines().size());
            return 0;
        }
    }

    /** The cache updater's settings on cluster {@code c}: the cluster's, then {@code defaults}, then --set. */
    static CacheUpdaterSettings cdcSettings(ClusterFile c, Map<String, String> defaults, SetOptions sets) {
        Map<String, String> settings = new LinkedHashMap<>(c.jobSettings());
        settings.putAll(defaults);
        settings.putAll(sets.overrides());
        return CacheUpdaterSettings.from(Config.of(settings));
    }

    /** How long a publish waits for the cluster's broker to answer before it says so. */
    private static final Duration BROKER_WAIT = Duration.ofSeconds(15);

    /** How the commands reach cluster {@code c}'s broker: its address and client security, then --set. */
    static KafkaClient kafka(ClusterFile c, SetOptions sets) {
        Map<String, String> settings = new LinkedHashMap<>(c.kafka().settings());
        sets.overrides().forEach((key, value) -> {
            if (key.startsWith("kafka.")) {
                settings.put(key, value);
            }
        });
        KafkaClient kafka = KafkaClient.from(Config.of(settings));
        // a broker that does not answer is named now, not after a producer's minute of retries
        try {
            KafkaTopics.brokers(kafka, BROKER_WAIT);
        } catch (IllegalStateException e) {
            throw new ClusterException("the cluster's Kafka at " + kafka.servers() + " does not answer ("
                    + e.getMessage() + "): is it up? 'bin/nearline cluster check --cluster " + c.dir() + "'");
        }
        return kafka;
    }

    static JoinSettings joinSettings(ClusterFile c, SetOptions sets) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("kafka.bootstrap-servers", c.kafkaBootstrapServers());
        settings.putAll(sets.overrides());
        return JoinSettings.from(Config.of(settings));
    }
}
