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
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.SetOptions;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.kit.processes.Home;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nearline jobs list | stop | upgrade}: the jobs on a cluster. */
@Command(
        name = "jobs",
        mixinStandardHelpOptions = true,
        description = "The jobs on a cluster: list them (state and events.written), stop one (with a savepoint), "
                + "upgrade one without losing state.",
        subcommands = {JobsCommand.ListJobs.class, JobsCommand.Stop.class, JobsCommand.Upgrade.class})
public final class JobsCommand implements Runnable {

    @Override
    public void run() {
        System.out.println("usage: nearline jobs list|stop|upgrade (see --help)");
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Each job: id, name, state, events.written.")
    static final class ListJobs implements Callable<Integer> {

        @Mixin
        ClusterOption cluster;

        @Override
        public Integer call() {
            ClusterFile c = cluster.read();
            row("ID", "NAME", "STATE", "EVENTS.WRITTEN", "BOOTSTRAP.WRITTEN");
            if (c.flinkRestUrl() != null) {
                String rest = c.flinkRestUrl();
                for (JsonNode job : FlinkRest.get(rest, "/jobs/overview").path("jobs")) {
                    flinkRow(rest, job.path("jid").asText(), job);
                }
            }
            if (c.connectRestUrl() != null) {
                for (String[] connector : ConnectDeploy.list(c)) {
                    row(connector[0], connector[1], connector[2], connector[3], "-");
                }
            }
            for (String[] verifier : VerifierDeploy.list(c)) {
                row(verifier[0], verifier[1], verifier[2], "-", "-");
            }
            if (c.yarnWebUrl() != null) {
                for (YarnRest.App app : YarnRest.apps(c.yarnWebUrl())) {
                    if (app.type().equals("Apache Flink") && app.state().equals("RUNNING")) {
                        // Flink in application mode: its jobs and counters through YARN's proxy
                        String rest = FlinkYarn.rest(c, app);
                        for (JsonNode job : FlinkYarn.jobs(rest)) {
                            flinkRow(rest, app.id(), job);
                        }
                        continue;
                    }
                    // a Samza job's counters: from the metrics stream its deploy added
                    String written = "-";
                    String bootstrap = "-";
                    if (app.type().equals("Samza") && app.state().equals("RUNNING")) {
                        String job =
                                app.name().substring(0, Math.max(0, app.name().lastIndexOf('_')));
                        written = count(c, job, "events.written");
                        bootstrap = count(c, job, "bootstrap.written");
                    }
                    row(app.id(), app.name(), app.state(), written, bootstrap);
                }
            }
            return 0;
        }
    }

    /** A Flink job's line under {@code id}: its counters summed over its subtasks from {@code rest} while it runs. */
    private static void flinkRow(String rest, String id, JsonNode job) {
        String jid = job.path("jid").asText();
        String state = job.path("state").asText();
        boolean running = state.equals("RUNNING");
        row(
                id,
                job.path("name").asText(),
                state,
                running ? String.format("%,d", FlinkRest.metricSum(rest, jid, "events.written")) : "-",
                running ? String.format("%,d", FlinkRest.metricSum(rest, jid, "bootstrap.written")) : "-");
    }

    /** One line of {@code jobs list}: id, name, state, events.written, bootstrap.written. */
    private static void row(String id, String name, String state, String written, String bootstrap) {
        System.out.printf("%-32s  %-28s  %-10s  %14s  %17s%n", id, name, state, written, bootstrap);
    }

    private static String count(ClusterFile c, String job, String counter) {
        long n = SamzaMetricsStream.count(c.kafka(), job, counter);
        return n < 0 ? "(none yet)" : String.format("%,d", n);
    }

    @Command(
            name = "stop",
            mixinStandardHelpOptions = true,
            description = "Stop a job; with --savepoint, take a savepoint first and print its path.")
    static final class Stop implements Callable<Integer> {

        @Parameters(
                index = "0",
                paramLabel = "ID",
                description = "The job id (see jobs list; a connector's is connect:NAME, a verifier's verifier:NAME), "
                        + "or the descriptor of a job "
                        + "on Kubernetes (target kubernetes): its resource, suspended, is written into --out.")
        String id;

        @Option(
                names = "--out",
                paramLabel = "DIR",
                description = "A descriptor of target kubernetes: where the stopped job's resource is written.")
        Path out;

        @Mixin
        SetOptions sets;

        @Option(
                names = "--savepoint",
                paramLabel = "DIR",
                description = "Where the savepoint goes: a directory here, or a URI Flink's nodes reach (hdfs://...).")
        String savepoint;

        @Mixin
        ClusterOption cluster;

        @Override
        public Integer call() {
            ClusterFile c = cluster.read();
            if (id.endsWith(".yaml") || id.endsWith(".yml")) {
                Descriptor d = Descriptor.read(Path.of(id));
                if (!d.target().equals("kubernetes")) {
                    throw new ClusterException(id + " deploys to " + d.target() + ": stop its job by id (see "
                            + "'bin/nearline jobs list'); a descriptor names the job to stop on Kubernetes only");
                }
                return DeployCommand.kubernetes(
                        new KubernetesDeploy.Request(
                                d, c, sets.overrides(), null, KubernetesDeploy.JobState.SUSPENDED, Home.dir()),
                        out,
                        false);
            }
            if (out != null) {
                throw new ClusterException("--out is for a job on Kubernetes (a descriptor of target kubernetes)");
            }
            if (id.startsWith(VerifierDeploy.ID_PREFIX)) {
                if (savepoint != null) {
                    throw new ClusterException("--savepoint is Flink's: the verifier keeps no state");
                }
                return VerifierDeploy.stop(c, id.substring(VerifierDeploy.ID_PREFIX.length()));
            }
            if (id.startsWith(ConnectDeploy.ID_PREFIX)) {
                if (savepoint != null) {
                    throw new ClusterException("--savepoint is Flink's: a connector's positions are its consumer "
                            + "group's committed offsets, which stay");
                }
                return ConnectDeploy.stop(c, id.substring(ConnectDeploy.ID_PREFIX.length()));
            }
            if (id.startsWith("application_")
                    && YarnRest.app(c.yarnWeb(), id).type().equals("Apache Flink")) {
                String rest = FlinkYarn.rest(c, YarnRest.app(c.yarnWeb(), id));
                List<JsonNode> jobs = FlinkYarn.jobs(rest);
                if (savepoint == null || jobs.isEmpty()) {
                    YarnRest.kill(c.yarnWeb(), id);
                    System.out.println("killed " + id);
                    return 0;
                }
                String location = FlinkDeploy.stop(rest, jobs.get(0).path("jid").asText(), uri(savepoint));
                System.out.println("stopped " + id + "; savepoint " + location);
                return 0;
            }
            if (id.startsWith("application_")) {
                if (savepoint != null) {
                    throw new ClusterException(
                            "--savepoint is Flink's: a Samza job keeps its state in checkpoints and " + "changelogs");
                }
                YarnRest.App app = YarnRest.app(c.yarnWeb(), id);
                YarnRest.kill(c.yarnWeb(), id);
                SamzaDeploy.untarget(c, app);
                System.out.println("killed " + id + " (its checkpoints and changelogs stay for the next submission)");
                return 0;
            }
            String rest = c.flinkRest();
            String location = FlinkDeploy.stop(rest, id, savepoint == null ? null : uri(savepoint));
            System.out.println("stopped " + id + (location == null ? " (no savepoint)" : "; savepoint " + location));
            return 0;
        }

        /** A savepoint directory as Flink takes it: a URI as given, a path here as its file:// URI. */
        private static String uri(String dir) {
            return dir.matches("[a-z][a-z0-9+.-]*:.*")
                    ? dir
                    : "file://" + Path.of(dir).toAbsolutePath().normalize();
        }
    }

    @Command(
            name = "upgrade",
            mixinStandardHelpOptions = true,
            description = "Upgrade the running job of a descriptor: stop it with a savepoint, submit the descriptor's "
                    + "artifact from that savepoint (state and input positions kept); a connector gets its new "
                    + "config in place (offsets kept).")
    static final class Upgrade implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "DESCRIPTOR", description = "The descriptor of the job.")
        Path descriptor;

        @Option(
                names = "--plugin",
                paramLabel = "ZIP",
                description =
                        "A connector: a new version of its plugin (jobs/target/dist/nearline-cache-sink-connect.zip) "
                                + "onto the local cluster's Connect worker, restarted for it; offsets kept.")
        Path plugin;

        @Option(
                names = "--out",
                paramLabel = "DIR",
                description = "A job on Kubernetes (target kubernetes): where its new resource is written; the "
                        + "operator applies it through a savepoint (upgradeMode: savepoint).")
        Path out;

        @Mixin
        ClusterOption cluster;

        @Mixin
        SetOptions sets;

        @Override
        public Integer call() {
            Descriptor d = Descriptor.read(descriptor);
            ClusterFile c = cluster.read();
            if (d.target().equals("kubernetes")) {
                return DeployCommand.kubernetes(
                        new KubernetesDeploy.Request(
                                d, c, sets.overrides(), null, KubernetesDeploy.JobState.RUNNING, Home.dir()),
                        out,
                        false);
            }
            if (d.engine().equals("connect")) {
                return ConnectDeploy.upgrade(d, c, sets.overrides(), plugin);
            }
            if (d.engine().equals("process")) {
                VerifierDeploy.command(d, c, sets.overrides(), Home.dir()); // checked before the stop
                if (VerifierDeploy.running(c, d.name()).isPresent()) {
                    VerifierDeploy.stop(c, d.name());
                }
                return VerifierDeploy.deploy(d, c, sets.overrides(), false);
            }
            if (plugin != null) {
                throw new ClusterException(
                        "--plugin is for a connector (engine connect); " + d.name() + " runs on " + d.engine());
            }
            if (d.engine().equals("samza")) {
                String web = c.yarnWeb();
                YarnRest.App running = SamzaDeploy.running(web, d.name())
                        .orElseThrow(() -> new ClusterException("no running application named " + d.name() + " on "
                                + web + ": deploy it first ('bin/nearline deploy " + descriptor + "')"));
                SamzaDeploy.Plan plan = SamzaDeploy.plan(d, c, sets.overrides()); // checked before the kill
                YarnRest.kill(web, running.id());
                System.out.println(
                        "killed " + running.id() + "; resubmitting (state back from checkpoints and changelogs)");
                return DeployCommand.deploySamza(plan, c, false);
            }
            if (d.target().equals("yarn")) {
                FlinkYarn.Running running = FlinkYarn.running(c, d.name())
                        .orElseThrow(() -> new ClusterException(
                                "no running Flink job named " + d.name() + " on YARN at " + c.yarnWeb()
                                        + ": deploy it first ('bin/nearline deploy " + descriptor + "')"));
                FlinkDeploy.plan(d, c, sets.overrides(), null);
                String savepoint = FlinkDeploy.stop(running.rest(), running.jobId(), c.flinkState() + "/savepoints");
                System.out.println("stopped " + running.appId() + " with savepoint " + savepoint);
                String from = d.restore() == Descriptor.Restore.NONE ? null : savepoint;
                return DeployCommand.deploy(FlinkDeploy.plan(d, c, sets.overrides(), from), c, false);
            }
            String rest = c.flinkRest();
            String running = FlinkDeploy.runningJob(rest, d.name())
                    .orElseThrow(() -> new ClusterException("no running job named " + d.name() + " on " + rest
                            + ": deploy it first ('bin/nearline deploy " + descriptor + "')"));
            // check the new submission before stopping the old job
            FlinkDeploy.plan(d, c, sets.overrides(), null);
            String savepoint = FlinkDeploy.stop(rest, running, c.flinkState() + "/savepoints");
            System.out.println("stopped " + running + " with savepoint " + savepoint);
            String from = d.restore() == Descriptor.Restore.NONE ? null : savepoint;
            return DeployCommand.deploy(FlinkDeploy.plan(d, c, sets.overrides(), from), c, false);
        }
    }
}
