package io.nearline.localcluster;

import io.nearline.cacheupdater.core.replay.ChangeEventGenerator;
import io.nearline.tracking.join.TrackingGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nearline bench cdc}: the cache-updater job's throughput on each engine against the raw consume rate;
 * {@code nearline bench join}: the tracking join's throughput and join latency on each engine.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "End-to-end benchmarks of the jobs on this machine.",
        subcommands = {
            BenchCommand.Cdc.class,
            BenchCommand.Join.class,
            BenchCommand.Bootstrap.class,
            CommandLine.HelpCommand.class
        })
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    @Command(
            name = "cdc",
            mixinStandardHelpOptions = true,
            description = {
                "Replay a generated change stream through the cache-updater job into the RocksDB store on "
                        + "each engine, and report its steady rate next to the raw consume rate of the same topic, "
                        + "measured in the same run."
            })
    public static final class Cdc implements Callable<Integer> {

        @Option(
                names = "--events",
                defaultValue = "1000000",
                description = "Change events (default: ${DEFAULT-VALUE}).")
        long events;

        @Option(names = "--keys", defaultValue = "100000", description = "Distinct keys (default: ${DEFAULT-VALUE}).")
        int keys;

        @Option(
                names = "--engine",
                split = ",",
                defaultValue = "flink,samza",
                description = "Engines, in order (default: ${DEFAULT-VALUE}).")
        List<String> engines;

        @Option(
                names = "--partitions",
                defaultValue = "2",
                description = "Partitions of the CDC topic (default: ${DEFAULT-VALUE}).")
        int partitions;

        @Option(
                names = "--parallelism",
                defaultValue = "2",
                description = "Parallel tasks (default: ${DEFAULT-VALUE}).")
        int parallelism;

        @Option(names = "--seed", defaultValue = "1", description = "Generator seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(
                names = "--work-dir",
                description = "Where the stream, brokers and stores go (default: a temporary directory).")
        Path workDir;

        @Override
        public Integer call() throws Exception {
            positive("--events", events, "--keys", keys, "--partitions", partitions, "--parallelism", parallelism);
            Path work =
                    workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("nearline-bench");
            Path stream = work.resolve("events.jsonl");
            System.out.printf(
                    "bench cdc: generating %,d events over %,d keys (seed %d) in %s%n", events, keys, seed, stream);
            ChangeEventGenerator.write(stream, events, keys, seed);
            List<String> rows = new ArrayList<>();
            for (String engine : engines) {
                Path summary = work.resolve("summary-" + engine + ".json");
                int code = Home.runBench(
                        engine,
                        "replay-cdc",
                        List.of(
                                "--events",
                                stream.toString(),
                                "--out",
                                work.resolve("state-" + engine + ".jsonl").toString(),
                                "--work-dir",
                                work.resolve(engine).toString(),
                                "--partitions",
                                Integer.toString(partitions),
                                "--parallelism",
                                Integer.toString(parallelism),
                                "--raw-consume-baseline",
                                "--summary-json",
                                summary.toString()));
                if (code != 0) {
                    return code;
                }
                rows.add(engine + "  "
                        + Files.readString(summary, StandardCharsets.UTF_8).trim());
            }
            System.out.printf(
                    "%nbench cdc summary (%,d events, %,d keys, %d partitions, parallelism %d):%n",
                    events, keys, partitions, parallelism);
            rows.forEach(r -> System.out.println("  " + r));
            return 0;
        }
    }

    @Command(
            name = "join",
            mixinStandardHelpOptions = true,
            description = {
                "Replay generated feed tracking traffic (fan-out up to 16) through the feed-tracking-join job "
                        + "on each engine, and report its steady rate and the join latency (processing time from the arrival "
                        + "of the last event a complete join needed to its emission, p50/p99)."
            })
    public static final class Join implements Callable<Integer> {

        @Option(
                names = "--requests",
                defaultValue = "105000",
                description =
                        "Feed requests; about 9.5 input events each (default: ${DEFAULT-VALUE}, about 1,000,000 events).")
        int requests;

        @Option(
                names = "--engine",
                split = ",",
                defaultValue = "flink,samza",
                description = "Engines, in order (default: ${DEFAULT-VALUE}).")
        List<String> engines;

        @Option(
                names = "--partitions",
                defaultValue = "4",
                description = "Partitions of each input topic (default: ${DEFAULT-VALUE}).")
        int partitions;

        @Option(
                names = "--parallelism",
                defaultValue = "2",
                description = "Parallel tasks (default: ${DEFAULT-VALUE}).")
        int parallelism;

        @Option(names = "--seed", defaultValue = "1", description = "Generator seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(
                names = "--work-dir",
                description = "Where the traffic, brokers and state go (default: a temporary directory).")
        Path workDir;

        @Override
        public Integer call() throws Exception {
            positive("--requests", requests, "--partitions", partitions, "--parallelism", parallelism);
            Path work = workDir != null
                    ? Files.createDirectories(workDir)
                    : Files.createTempDirectory("nearline-bench-join");
            Path index = work.resolve("index.jsonl");
            Path broker = work.resolve("broker.jsonl");
            TrackingGenerator.Written w = new TrackingGenerator(
                            requests, 64, 16, 0.02, 0.02, 0.01, 500, 0.001, 30_000, seed)
                    .write(index, broker);
            System.out.printf(
                    "bench join: %,d requests -> %,d fragments + %,d broker events (seed %d) in %s%n",
                    requests, w.fragments(), w.brokerEvents(), seed, work);
            List<String> rows = new ArrayList<>();
            for (String engine : engines) {
                Path summary = work.resolve("summary-" + engine + ".json");
                int code = Home.runBench(
                        engine,
                        "replay-join",
                        List.of(
                                "--index",
                                index.toString(),
                                "--broker",
                                broker.toString(),
                                "--out-dir",
                                work.resolve("out-" + engine).toString(),
                                "--work-dir",
                                work.resolve(engine).toString(),
                                "--partitions",
                                Integer.toString(partitions),
                                "--parallelism",
                                Integer.toString(parallelism),
                                "--summary-json",
                                summary.toString()));
                if (code != 0) {
                    return code;
                }
                rows.add(engine + "  "
                        + Files.readString(summary, StandardCharsets.UTF_8).trim());
            }
            System.out.printf(
                    "%nbench join summary (%,d events, %d partitions, parallelism %d):%n",
                    w.fragments() + w.brokerEvents(), partitions, parallelism);
            rows.forEach(r -> System.out.println("  " + r));
            return 0;
        }
    }

    @Command(
            name = "bootstrap",
            mixinStandardHelpOptions = true,
            description = {
                "Replay a generated snapshot (one row per key) through the bootstrapper into the RocksDB store "
                        + "on each engine, with no live stream, and report its steady rate in bootstrap records per second."
            })
    public static final class Bootstrap implements Callable<Integer> {

        @Option(names = "--rows", defaultValue = "1000000", description = "Snapshot rows (default: ${DEFAULT-VALUE}).")
        int rows;

        @Option(
                names = "--engine",
                split = ",",
                defaultValue = "flink,samza",
                description = "Engines, in order (default: ${DEFAULT-VALUE}).")
        List<String> engines;

        @Option(
                names = "--partitions",
                defaultValue = "2",
                description = "Partitions of the bootstrap topic (default: ${DEFAULT-VALUE}).")
        int partitions;

        @Option(
                names = "--parallelism",
                defaultValue = "2",
                description = "Parallel tasks (default: ${DEFAULT-VALUE}).")
        int parallelism;

        @Option(
                names = "--work-dir",
                description = "Where the snapshot, brokers and stores go (default: a temporary directory).")
        Path workDir;

        @Override
        public Integer call() throws Exception {
            positive("--rows", rows, "--partitions", partitions, "--parallelism", parallelism);
            Path work = workDir != null
                    ? Files.createDirectories(workDir)
                    : Files.createTempDirectory("nearline-bench-bootstrap");
            Path snapshot = work.resolve("snapshot.jsonl");
            Path noEvents = Files.writeString(work.resolve("no-events.jsonl"), "");
            ChangeEventGenerator.writeSnapshot(snapshot, rows);
            System.out.printf("bench bootstrap: a snapshot of %,d rows in %s%n", rows, snapshot);
            List<String> results = new ArrayList<>();
            for (String engine : engines) {
                Path summary = work.resolve("summary-" + engine + ".json");
                int code = Home.runBench(
                        engine,
                        "replay-cdc",
                        List.of(
                                "--events",
                                noEvents.toString(),
                                "--snapshot",
                                snapshot.toString(),
                                "--out",
                                work.resolve("state-" + engine + ".jsonl").toString(),
                                "--work-dir",
                                work.resolve(engine).toString(),
                                "--partitions",
                                Integer.toString(partitions),
                                "--parallelism",
                                Integer.toString(parallelism),
                                "--summary-json",
                                summary.toString()));
                if (code != 0) {
                    return code;
                }
                results.add(engine + "  "
                        + Files.readString(summary, StandardCharsets.UTF_8).trim());
            }
            System.out.printf(
                    "%nbench bootstrap summary (%,d rows, %d partitions, parallelism %d):%n",
                    rows, partitions, parallelism);
            results.forEach(r -> System.out.println("  " + r));
            return 0;
        }
    }

    /** Each (option, value) pair must be at least 1: a bench of nothing measures nothing (exit 2 otherwise). */
    static void positive(Object... optionsAndValues) {
        for (int i = 0; i < optionsAndValues.length; i += 2) {
            long value = ((Number) optionsAndValues[i + 1]).longValue();
            if (value < 1) {
                throw new IllegalArgumentException(optionsAndValues[i] + " must be at least 1, got " + value);
            }
        }
    }
}
