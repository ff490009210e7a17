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
package io.nearline.jobs.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cdcbootstrap.core.BootstrapSettings;
import io.nearline.common.config.Config;
import io.nearline.feedtrackingjoin.core.JoinSettings;
import io.nearline.jobs.cluster.ClientProcess;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.Daemons;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.kit.kafka.KafkaClient;
import io.nearline.jobs.kit.kafka.KafkaTopics;
import io.nearline.jobs.kit.processes.Home;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deploys to a Flink session with Flink's own client ({@code CliFrontend run -d}), stops jobs with a
 * savepoint over Flink's REST API, and upgrades: stop with a savepoint, submit again from it.
 */
public final class FlinkDeploy {

    private static final Duration SUBMIT_TIMEOUT = Duration.ofMinutes(3);
    private static final Pattern JOB_ID = Pattern.compile("JobID ([0-9a-f]{32})");
    private static final Pattern YARN_APP_ID = Pattern.compile("Submitted application (application_\\d+_\\d+)");

    /** What a deploy resolved: the settings the job gets and the exact command that submits it. */
    public record Plan(
            Descriptor descriptor,
            Map<String, String> settings,
            List<String> command,
            Map<String, String> env,
            Pattern submitted) {}

    private FlinkDeploy() {}

    public static Plan plan(Descriptor d, ClusterFile cluster, Map<String, String> overrides, String savepoint) {
        Path home = Home.dir();
        Path artifact = d.artifactPath(home);
        boolean yarn = d.target().equals("yarn");
        if (yarn) {
            cluster.yarnWeb(); // a cluster without YARN is named here, in one line
        }
        Map<String, String> settings = cluster.jobSettings(d.settings(), overrides);
        JobSettingsCheck.check(d, settings);
        Path clientConf = cluster.dir().resolve(yarn ? "flink-yarn/conf" : "flink/client-conf");
        Path lib = yarn ? FlinkYarn.lib(home) : FlinkRest.lib(home);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("FLINK_CONF_DIR", clientConf.toString());
        if (yarn) {
            env.put("FLINK_LIB_DIR", lib.toString()); // what YARN ships to the job's containers
            env.put("HADOOP_CONF_DIR", cluster.yarnConfDir().toString());
            FlinkYarn.writeClientConfig(clientConf, cluster, home);
        } else {
            FlinkRest.writeClientConfig(clientConf, cluster.flinkRest());
        }
        List<String> command = new ArrayList<>(List.of(Home.java()));
        command.addAll(FlinkRest.JAVA_17_OPTS);
        command.addAll(List.of(
                "-Dlog4j.configurationFile=file:" + clientConf.resolve("log4j-cli.properties"),
                "-cp",
                (yarn ? cluster.yarnConfDir() + ":" : "") + lib + "/*",
                "org.apache.flink.client.cli.CliFrontend",
                "run"));
        command.addAll(yarn ? List.of("-t", "yarn-application") : List.of("--detached"));
        command.addAll(List.of("-p", Integer.toString(d.parallelism())));
        if (d.entryClass() != null) {
            command.addAll(List.of("-c", d.entryClass()));
        }
        if (savepoint != null) {
            command.addAll(List.of("-s", savepoint));
        }
        flinkConfiguration(d).forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add(artifact.toString());
        command.addAll(jobArguments(settings));
        return new Plan(d, settings, command, env, yarn ? YARN_APP_ID : JOB_ID);
    }

    /**
     * The Flink configuration a descriptor gives its job, whatever the target: its name (which
     * {@code jobs upgrade} finds it by) and the descriptor's engine settings.
     */
    static Map<String, String> flinkConfiguration(Descriptor d) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("pipeline.name", d.name());
        conf.putAll(d.engineSettings());
        return conf;
    }

    /** The job's own arguments, whatever the target: each setting as {@code --set KEY=VALUE}. */
    static List<String> jobArguments(Map<String, String> settings) {
        List<String> args = new ArrayList<>();
        settings.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        return args;
    }

    /** Checks the job's settings and creates its topics where missing; returns the topics. */
    public static List<String> prepareTopics(Plan plan, KafkaClient kafka) {
        return prepareTopics(plan.descriptor(), plan.settings(), kafka);
    }

    static List<String> prepareTopics(Descriptor d, Map<String, String> settings, KafkaClient kafka) {
        Config config = Config.of(settings);
        Map<String, Integer> topics = new LinkedHashMap<>();
        int partitions = Math.max(d.parallelism(), 1);
        switch (d.job()) {
            case "cache-updater", "bootstrapper" -> {
                CacheUpdaterSettings s = CacheUpdaterSettings.from(config);
                topics.put(s.cdcTopic(), partitions);
                topics.put(s.deadLetterTopic(), 1);
                topics.put(BootstrapSettings.from(config).topic(), partitions);
            }
            case "tracking-join" -> {
                JoinSettings s = JoinSettings.from(config);
                for (String t : List.of(s.indexTopic(), s.brokerTopic())) {
                    topics.put(t, partitions);
                }
                for (String t : List.of(s.joinedTopic(), s.orphansTopic(), s.lateTopic(), s.deadLetterTopic())) {
                    topics.put(t, 1);
                }
            }
            default -> throw new ClusterException("unknown job " + d.job());
        }
        KafkaTopics.createTopics(kafka, topics);
        return List.copyOf(topics.keySet());
    }

    /**
     * Submits; returns the Flink job id (session) or the YARN application id (application mode). A bad
     * setting makes the job's main exit 2 in the client, before anything is submitted.
     */
    public static String submit(Plan plan, ClusterFile cluster) {
        if (plan.descriptor().target().equals("yarn")) {
            FlinkYarn.uploadLib(cluster, Home.dir());
        }
        ClientProcess.Result r = ClientProcess.run(plan.command(), plan.env(), SUBMIT_TIMEOUT);
        Matcher m = plan.submitted().matcher(r.output());
        boolean found = m.find();
        if (r.exit() == 0 && found) {
            return m.group(1);
        }
        if (r.timedOut()) {
            if (found && m.group(1).startsWith("application_")) {
                YarnRest.kill(cluster.yarnWeb(), m.group(1)); // nothing half-submitted stays behind
            }
            throw ClusterException.failed("the submission did not complete within " + SUBMIT_TIMEOUT.toMinutes()
                    + " minutes" + (found ? " (" + m.group(1) + " killed)" : "")
                    + ": is there room for it? 'bin/nearline jobs list --cluster " + cluster.dir() + "'");
        }
        String why = r.output()
                .lines()
                .filter(l -> l.contains(": ") && !l.startsWith("\tat ") && !l.startsWith("WARN "))
                .reduce((a, b) -> b)
                .orElse(r.output().strip());
        if (r.exit() == 2) {
            throw new ClusterException(why.strip()); // the job's own one-line config error
        }
        throw ClusterException.failed("flink run failed (exit " + r.exit() + "): " + why.strip());
    }

    /** The running job of that name, if any. */
    public static Optional<String> runningJob(String rest, String name) {
        for (JsonNode job : FlinkRest.get(rest, "/jobs/overview").path("jobs")) {
            if (job.path("name").asText().equals(name)
                    && job.path("state").asText().equals("RUNNING")) {
                return Optional.of(job.path("jid").asText());
            }
        }
        return Optional.empty();
    }

    /**
     * Waits until every task of the job runs: Flink refuses a savepoint while any is still being
     * deployed (a job just submitted or restarting), and an upgrade right after a deploy is common.
     */
    private static void awaitTasksRunning(String rest, String jobId) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            JsonNode vertices = FlinkRest.get(rest, "/jobs/" + jobId).path("vertices");
            boolean allRunning = vertices.size() > 0;
            for (JsonNode v : vertices) {
                allRunning &= v.path("status").asText().equals("RUNNING");
            }
            if (allRunning) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw ClusterException.failed("the tasks of " + jobId + " are not all running after 2 minutes, so no "
                        + "savepoint can be taken: is there room for them? 'bin/nearline jobs list'");
            }
            Daemons.sleep(500);
        }
    }

    /**
     * Stops a job, with a savepoint under {@code savepointDir} (a URI Flink's nodes reach) when given;
     * returns the savepoint's path (or null).
     */
    public static String stop(String rest, String jobId, String savepointDir) {
        if (!jobId.matches("[0-9a-f]{32}")) {
            throw new ClusterException(
                    "'" + jobId + "' is not a Flink job id (32 hex digits; see 'bin/nearline jobs list')");
        }
        FlinkRest.get(rest, "/jobs/" + jobId); // 404: no such job, a usage error
        if (savepointDir == null) {
            FlinkRest.patch(rest, "/jobs/" + jobId + "?mode=cancel");
            return null;
        }
        awaitTasksRunning(rest, jobId);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("targetDirectory", savepointDir);
        body.put("drain", false);
        String trigger = FlinkRest.post(rest, "/jobs/" + jobId + "/stop", body)
                .path("request-id")
                .asText();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode s = FlinkRest.get(rest, "/jobs/" + jobId + "/savepoints/" + trigger);
            if (s.path("status").path("id").asText().equals("COMPLETED")) {
                JsonNode op = s.path("operation");
                if (op.has("failure-cause")) {
                    throw ClusterException.failed("the savepoint failed: "
                            + op.path("failure-cause")
                                    .path("stack-trace")
                                    .asText()
                                    .lines()
                                    .findFirst()
                                    .orElse(""));
                }
                return op.path("location").asText();
            }
            Daemons.sleep(500);
        }
        throw ClusterException.failed("the savepoint of " + jobId + " did not complete within 3 minutes");
    }
}
