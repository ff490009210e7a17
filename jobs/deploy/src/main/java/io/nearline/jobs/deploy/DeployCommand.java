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

import io.nearline.common.config.Config;
import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import io.nearline.jobs.cluster.ClusterOption;
import io.nearline.jobs.cluster.FlinkRest;
import io.nearline.jobs.cluster.SetOptions;
import io.nearline.jobs.cluster.YarnRest;
import io.nearline.jobs.kit.processes.Home;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nearline deploy DESCRIPTOR}: submit a job to a cluster from its descriptor. */
@Command(
        name = "deploy",
        mixinStandardHelpOptions = true,
        description = {
            "Deploy a job or a connector from its descriptor (jobs/deploy/*.yaml) to a cluster. Everything is checked first "
                    + "(descriptor keys, artifact, cluster reachable, the job's settings); the job's topics are "
                    + "created where missing. Prints the job id and where to watch it.",
            "%nExit 0 when submitted, 2 on bad input or an unreachable cluster, 1 when the cluster refuses.%n"
        })
public final class DeployCommand implements Callable<Integer> {

    @Parameters(
            index = "0",
            paramLabel = "DESCRIPTOR",
            description = "The descriptor, e.g. jobs/deploy/cache-updater-flink-session.yaml.")
    Path descriptor;

    @Mixin
    ClusterOption cluster;

    @Mixin
    SetOptions sets;

    @Option(names = "--dry-run", description = "Print the resolved settings and the exact submission; submit nothing.")
    boolean dryRun;

    @Option(
            names = "--from-savepoint",
            paramLabel = "PATH",
            description = "Start from this savepoint (state and input positions).")
    String fromSavepoint;

    @Option(
            names = "--target",
            paramLabel = "TARGET",
            description = "Deploy to this target instead of the descriptor's: kubernetes writes the resources "
                    + "to apply with kubectl (the Flink Kubernetes Operator's, Strimzi's) into --out.")
    String target;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Target kubernetes: where the resources are written (kubectl apply -f DIR).")
    Path out;

    @Override
    public Integer call() {
        Descriptor d = Descriptor.read(descriptor);
        if (target != null) {
            d = d.withTarget(target);
        }
        ClusterFile c = cluster.read();
        if (d.target().equals("kubernetes")) {
            return kubernetes(
                    new KubernetesDeploy.Request(
                            d, c, sets.overrides(), fromSavepoint, KubernetesDeploy.JobState.RUNNING, Home.dir()),
                    out,
                    dryRun);
        }
        if (out != null) {
            throw new ClusterException("--out is for target kubernetes; " + d.name() + " deploys to " + d.target());
        }
        if (fromSavepoint != null && !isSavepoint(fromSavepoint)) {
            throw new ClusterException(fromSavepoint + " is not a savepoint (a directory with a _metadata file)");
        }
        if (fromSavepoint != null && d.restore() == Descriptor.Restore.NONE) {
            throw new ClusterException(d.file() + " says restore: none, so it cannot start from a savepoint");
        }
        if (d.engine().equals("process")) {
            if (fromSavepoint != null) {
                throw new ClusterException("--from-savepoint is Flink's: the verifier keeps no state");
            }
            return VerifierDeploy.deploy(d, c, sets.overrides(), dryRun);
        }
        if (d.engine().equals("connect")) {
            if (fromSavepoint != null) {
                throw new ClusterException("--from-savepoint is Flink's: a connector resumes from the offsets the "
                        + "Connect worker keeps");
            }
            return ConnectDeploy.deploy(d, c, sets.overrides(), dryRun);
        }
        if (d.engine().equals("samza")) {
            if (fromSavepoint != null) {
                throw new ClusterException("--from-savepoint is Flink's: a Samza job restores from its checkpoints and "
                        + "changelogs by itself");
            }
            return deploySamza(SamzaDeploy.plan(d, c, sets.overrides()), c, dryRun);
        }
        FlinkDeploy.Plan plan = FlinkDeploy.plan(d, c, sets.overrides(), fromSavepoint);
        return deploy(plan, c, dryRun);
    }

    /**
     * Writes the Kubernetes resources of a request into {@code out} ({@code dryRun}: prints them): the
     * deploy, the upgrade (the new spec, which the operator rolls out through a savepoint) and the stop
     * (state suspended) of a job on Kubernetes.
     */
    static int kubernetes(KubernetesDeploy.Request request, Path out, boolean dryRun) {
        Descriptor d = request.descriptor();
        if (out == null && !dryRun) {
            throw new ClusterException("target kubernetes writes resources to apply: add --out DIR");
        }
        if (request.savepoint() != null && d.restore() == Descriptor.Restore.NONE) {
            throw new ClusterException(d.file() + " says restore: none, so it cannot start from a savepoint");
        }
        return KubernetesDeploy.write(KubernetesDeploy.resources(request), d, out, dryRun);
    }

    /**
     * Deploys {@code d} as the command does, with {@code overrides} over the descriptor's Nearline
     * settings; returns the Nearline settings the job runs with (a Samza package's own config included),
     * so a caller that feeds the job works from the same window, lateness and topics as the job.
     * {@code runTag}, when not null, gives a Samza job a state of its own ({@link SamzaDeploy#ownState});
     * a Flink application on YARN always starts with its own.
     */
    public static Map<String, String> submit(
            Descriptor d, ClusterFile c, Map<String, String> overrides, String runTag) {
        if (d.engine().equals("samza")) {
            SamzaDeploy.Plan plan = SamzaDeploy.plan(d, c, overrides);
            if (runTag != null) {
                plan = plan.with(SamzaDeploy.ownState(plan, runTag));
            }
            deploySamza(plan, c, false);
            return plan.nearline();
        }
        FlinkDeploy.Plan plan = FlinkDeploy.plan(d, c, overrides, null);
        deploy(plan, c, false);
        return plan.settings();
    }

    static int deploySamza(SamzaDeploy.Plan plan, ClusterFile c, boolean dryRun) {
        String web = c.yarnWeb();
        if (dryRun) {
            System.out.println("deploy " + plan.descriptor().name() + " ("
                    + plan.descriptor().job() + ") to YARN at " + web + " (dry run: nothing submitted)");
            System.out.println("job config (" + plan.configFile() + "):");
            System.out.println(Config.of(plan.config()).toString().indent(2).stripTrailing());
            System.out.println("submission (HADOOP_CONF_DIR=" + plan.yarnConf() + "):");
            System.out.println("  " + String.join(" ", plan.command()));
            return 0;
        }
        if (YarnRest.runningNodes(web) == 0) {
            throw new ClusterException("the YARN cluster at " + web + " is unreachable or has no running node: "
                    + "'bin/nearline cluster status --dir " + c.dir() + "'");
        }
        List<String> topics = FlinkDeploy.prepareTopics(plan.descriptor(), plan.nearline(), c.kafka());
        String app = SamzaDeploy.submit(plan, c);
        SamzaDeploy.target(plan, c);
        System.out.println("deployed " + plan.descriptor().name() + " as YARN application " + app);
        System.out.println("  topics   " + String.join(", ", topics));
        System.out.println("  watch    " + web + "/cluster/app/" + app + "  (ResourceManager UI)");
        System.out.println("  metrics  JMX MBeans of each container (metrics.reporters=jmx), group nearline"
                + (c.prometheusUrl() == null
                        ? ""
                        : "; scraped by " + c.prometheusUrl() + " ("
                                + plan.config().get(SamzaDeploy.TASK_EXECUTE) + ")"));
        System.out.println("  list     bin/nearline jobs list --cluster " + c.dir());
        return 0;
    }

    static int deploy(FlinkDeploy.Plan plan, ClusterFile c, boolean dryRun) {
        boolean yarn = plan.descriptor().target().equals("yarn");
        String where = yarn ? c.yarnWeb() : c.flinkRest();
        if (dryRun) {
            System.out.println("deploy " + plan.descriptor().name() + " ("
                    + plan.descriptor().job() + ") to " + plan.descriptor().target() + " at " + where
                    + " (dry run: nothing submitted)");
            System.out.println("settings:");
            System.out.println(Config.of(plan.settings()).toString().indent(2).stripTrailing());
            System.out.println("submission (" + plan.env() + "):");
            System.out.println("  " + String.join(" ", plan.command()));
            return 0;
        }
        if (yarn ? YarnRest.runningNodes(where) == 0 : !FlinkRest.reachable(where)) {
            throw new ClusterException(
                    "the cluster at " + where + " is unreachable: 'bin/nearline cluster status --dir " + c.dir() + "'");
        }
        List<String> topics = FlinkDeploy.prepareTopics(plan, c.kafka());
        String id = FlinkDeploy.submit(plan, c);
        if (yarn) {
            System.out.println("deployed " + plan.descriptor().name() + " as YARN application " + id
                    + " (Flink application mode)");
            System.out.println("  topics   " + String.join(", ", topics));
            System.out.println("  watch    " + where + "/proxy/" + id + "/  (Flink's web UI through YARN's proxy)");
        } else {
            System.out.println("deployed " + plan.descriptor().name() + " as Flink job " + id);
            System.out.println("  topics   " + String.join(", ", topics));
            System.out.println("  watch    " + where + "/#/job/running/" + id + "/overview  (web UI)");
            System.out.println("  metrics  " + where + "/jobs/" + id + "  and the Prometheus reporter on port 9249+ of "
                    + (c.address() != null ? c.address() : "each TaskManager"));
        }
        System.out.println("  list     bin/nearline jobs list --cluster " + c.dir());
        return 0;
    }

    /** Whether a local savepoint has its metadata; one on another file system (hdfs://...) is left to Flink. */
    static boolean isSavepoint(String path) {
        if (path.matches("[a-z][a-z0-9+.-]*:.*") && !path.startsWith("file:")) {
            return true;
        }
        Path p = Path.of(path.startsWith("file:") ? path.replaceFirst("^file:(//)?", "") : path);
        return Files.isRegularFile(p.resolve("_metadata"));
    }
}
