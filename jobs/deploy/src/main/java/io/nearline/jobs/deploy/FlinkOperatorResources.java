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

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.cluster.ClusterFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The Flink Kubernetes Operator's resources for a Flink job: a {@code FlinkDeployment} (application
 * mode, pods of its own) or a {@code FlinkSessionJob} on a session the operator already runs, with the
 * job's arguments and Flink configuration as a session or YARN deploy submits them.
 */
final class FlinkOperatorResources {

    static final String FLINK_API = "flink.apache.org/v1beta1";

    /** Where the Secret's keys are files: in the Flink pods, and in the Connect pods. */
    static final String FLINK_SECRETS = "/etc/nearline/secrets";

    /** Flink's Prometheus reporter, one JVM a pod; and the port Strimzi gives Connect's exporter. */
    static final int FLINK_METRICS_PORT = 9249;

    private FlinkOperatorResources() {}

    static KubernetesDeploy.Resource flinkDeployment(
            KubernetesDeploy.Request r, Map<String, String> settings, PodSecrets secrets) {
        Descriptor d = r.descriptor();
        ClusterFile c = r.cluster();
        String image = KubernetesYaml.required(
                d,
                "image",
                "the Flink image holding the job's jar in /opt/flink/usrlib (built FROM " + "flink:"
                        + KubernetesYaml.VERSIONS.getProperty("flink") + "-java17)");
        if (c.flinkStateDir() == null) {
            throw new ClusterException("the cluster file in " + c.dir() + " has no flink.state-dir: a Kubernetes deploy"
                    + " needs one every pod reaches for checkpoints, savepoints and HA metadata (s3://..., hdfs://...):"
                    + " 'bin/nearline cluster init --flink-state URI'");
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("image", image);
        spec.put("flinkVersion", flinkVersion());
        spec.put("serviceAccount", d.kubernetes().getOrDefault("service-account", "flink"));
        spec.put("flinkConfiguration", applicationConfiguration(d, c, r.home()));
        spec.put("podTemplate", podTemplate(secrets));
        spec.put("jobManager", KubernetesYaml.map("resource", KubernetesYaml.map("memory", "2048m", "cpu", 1.0)));
        spec.put("taskManager", KubernetesYaml.map("resource", KubernetesYaml.map("memory", "2048m", "cpu", 1.0)));
        spec.put(
                "job", job(d, d.kubernetes().getOrDefault("jar-uri", localJar(d)), settings, r.savepoint(), r.state()));
        return new KubernetesDeploy.Resource(
                "flinkdeployment-" + d.name() + ".yaml",
                "FlinkDeployment (Flink Kubernetes Operator 1.13+)",
                KubernetesYaml.resource(FLINK_API, "FlinkDeployment", d.name(), d, Map.of(), spec));
    }

    static KubernetesDeploy.Resource flinkSessionJob(KubernetesDeploy.Request r, Map<String, String> settings) {
        Descriptor d = r.descriptor();
        String jar = KubernetesYaml.required(
                d,
                "jar-uri",
                "where the operator fetches the job's jar for the session (https://..., "
                        + "s3://...): a session job has no image of its own");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("deploymentName", d.kubernetes().get("session"));
        spec.put("flinkConfiguration", FlinkDeploy.flinkConfiguration(d));
        spec.put("job", job(d, jar, settings, r.savepoint(), r.state()));
        return new KubernetesDeploy.Resource(
                "flinksessionjob-" + d.name() + ".yaml",
                "FlinkSessionJob on session " + d.kubernetes().get("session"),
                KubernetesYaml.resource(FLINK_API, "FlinkSessionJob", d.name(), d, Map.of(), spec));
    }

    /** The job: its jar, the arguments every target passes, and how the operator upgrades it. */
    private static Map<String, Object> job(
            Descriptor d, String jar, Map<String, String> settings, String savepoint, KubernetesDeploy.JobState state) {
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("jarURI", jar);
        if (d.entryClass() != null) {
            job.put("entryClass", d.entryClass());
        }
        job.put("args", FlinkDeploy.jobArguments(settings));
        job.put("parallelism", d.parallelism());
        // restore: savepoint -> the operator stops the job with a savepoint and starts the new spec from it
        job.put("upgradeMode", d.restore() == Descriptor.Restore.SAVEPOINT ? "savepoint" : "stateless");
        job.put("state", state == KubernetesDeploy.JobState.RUNNING ? "running" : "suspended");
        if (savepoint != null) {
            job.put("initialSavepointPath", savepoint);
        }
        return job;
    }

    /**
     * An application's Flink configuration: the settings the jobs expect of a cluster
     * ({@code jobs/flink-conf/config.yaml}), the state directories and Kubernetes HA under the cluster's
     * {@code flink.state-dir}, one reporter port a pod, then the descriptor's own.
     */
    private static Map<String, String> applicationConfiguration(Descriptor d, ClusterFile c, Path home) {
        Map<String, String> conf = new LinkedHashMap<>(expectedFlinkSettings(home));
        String state = c.flinkState();
        conf.put("metrics.reporter.prom.port", Integer.toString(FLINK_METRICS_PORT));
        conf.put("taskmanager.numberOfTaskSlots", "2");
        conf.put("state.checkpoints.dir", state + "/flink-kubernetes/checkpoints");
        conf.put("state.savepoints.dir", state + "/savepoints");
        conf.put("high-availability.type", "kubernetes");
        conf.put("high-availability.storageDir", state + "/flink-kubernetes/ha");
        conf.putAll(FlinkDeploy.flinkConfiguration(d));
        return conf;
    }

    /** {@code jobs/flink-conf/config.yaml}: flat keys, as every Flink target starts from. */
    static Map<String, String> expectedFlinkSettings(Path home) {
        Path file = home.resolve("jobs/flink-conf/config.yaml");
        try {
            Map<String, Object> y = new Yaml(new SafeConstructor(new LoaderOptions()))
                    .load(Files.readString(file, StandardCharsets.UTF_8));
            Map<String, String> out = new LinkedHashMap<>();
            y.forEach((key, value) -> out.put(key, String.valueOf(value)));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pods: the Secret's keys as files, its environment variables, and where Prometheus scrapes. */
    private static Map<String, Object> podTemplate(PodSecrets secrets) {
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", "flink-main-container"); // the operator merges this into Flink's own container
        container.put("ports", List.of(KubernetesYaml.map("name", "metrics", "containerPort", FLINK_METRICS_PORT)));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("containers", List.of(container));
        if (!secrets.isEmpty()) {
            if (!secrets.files.isEmpty()) {
                container.put("volumeMounts", List.of(secrets.volumeMount()));
                spec.put("volumes", List.of(secrets.volume()));
            }
            if (!secrets.env.isEmpty()) {
                container.put("env", secrets.envFromSecret());
            }
        }
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", KubernetesYaml.map("annotations", KubernetesYaml.scrapeAnnotations(FLINK_METRICS_PORT)));
        pod.put("spec", spec);
        return pod;
    }

    private static String localJar(Descriptor d) {
        return "local:///opt/flink/usrlib/" + Path.of(d.artifact()).getFileName();
    }

    /** {@code v2_2} for Flink 2.2.x: the operator's name for the Flink version the jobs are built with. */
    static String flinkVersion() {
        String[] v = KubernetesYaml.VERSIONS.getProperty("flink").split("\\.");
        return "v" + v[0] + "_" + v[1];
    }
}
