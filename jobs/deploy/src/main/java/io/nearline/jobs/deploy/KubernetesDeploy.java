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

import io.nearline.jobs.cluster.ClusterFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code deploy --target kubernetes}: the resources a user applies with {@code kubectl apply -f DIR},
 * built to the published schemas of the Apache Flink Kubernetes Operator ({@code FlinkDeployment},
 * {@code FlinkSessionJob}) and of Strimzi ({@code KafkaConnect}, {@code KafkaConnector}), from the same
 * descriptor and cluster file as every other target: the job's arguments and Flink configuration are
 * the ones a session or YARN deploy submits ({@link FlinkDeploy#jobArguments},
 * {@link FlinkDeploy#flinkConfiguration}), a connector's configuration the one the REST target posts
 * ({@link ConnectDeploy#config}). Secrets stay references: each one the settings name becomes a key of
 * the descriptor's Kubernetes {@code Secret} (by default {@code NAME-secrets}), mounted as files in the
 * job's pods, or read by a Debezium connector through Strimzi's config provider; a template of that
 * Secret lists what to fill in. Nothing is applied: no cluster is reached from here.
 */
final class KubernetesDeploy {

    /** What the resources ask of the job: to run, or to be suspended (Flink, from a savepoint) or stopped. */
    enum JobState {
        RUNNING,
        SUSPENDED
    }

    /** One resource: the file it goes to and its body. */
    record Resource(String file, String kind, Map<String, Object> body) {}

    /**
     * Where a Secret's template goes, under {@code --out}: a folder of its own, which {@code kubectl apply
     * -f OUT} (not recursive) does not read, so that writing the resources again for an upgrade never
     * replaces a live Secret with the template's placeholders, and no filled-in password has to sit among
     * the files that are applied.
     */
    static final String SECRET_TEMPLATES = "secret-templates";

    /**
     * What to write: a descriptor (target kubernetes) against a cluster file, with {@code --set}'s
     * overrides, a savepoint to start from (or null), the state the job should be in, and the tools'
     * home (the shipped Flink and Connect settings, the built artifacts).
     */
    record Request(
            Descriptor descriptor,
            ClusterFile cluster,
            Map<String, String> overrides,
            String savepoint,
            JobState state,
            Path home) {}

    private KubernetesDeploy() {}

    /**
     * The resources of {@code d} (target kubernetes) against cluster {@code c}: a {@code FlinkDeployment}
     * (or a {@code FlinkSessionJob} with {@code kubernetes.session}), or a {@code KafkaConnector} (and,
     * for the cache sink, the {@code KafkaConnect} that builds its plugin, with its metrics' ConfigMap);
     * then the Secret's template where the settings name a secret.
     */
    static List<Resource> resources(Request r) {
        Descriptor d = r.descriptor();
        ClusterFile c = r.cluster();
        Map<String, String> k = d.kubernetes();
        KubernetesYaml.checkName(d, "name", d.name());
        String secretName = k.getOrDefault("secret", d.name() + "-secrets");
        KubernetesYaml.checkName(d, "kubernetes.secret", secretName);
        List<Resource> out = new ArrayList<>();
        PodSecrets secrets;
        if (d.engine().equals("flink")) {
            secrets = new PodSecrets(secretName, FlinkOperatorResources.FLINK_SECRETS);
            // secrets first: one written inline is refused without being repeated
            Map<String, String> settings = secrets.take(c.jobSettings(d.settings(), r.overrides()), d);
            JobSettingsCheck.check(d, settings);
            out.add(
                    k.containsKey("session")
                            ? FlinkOperatorResources.flinkSessionJob(r, settings)
                            : FlinkOperatorResources.flinkDeployment(r, settings, secrets));
        } else {
            secrets = new PodSecrets(secretName, StrimziResources.CONNECT_SECRETS);
            String connect = k.getOrDefault("connect-cluster", "nearline-connect");
            KubernetesYaml.checkName(d, "kubernetes.connect-cluster", connect);
            Map<String, String> config = secrets.take(
                    ConnectDeploy.config(d, c, r.overrides(), kind -> secrets.connectProvided(d, kind)), d);
            out.add(StrimziResources.kafkaConnector(d, connect, config, r.state()));
            if (ConnectDeploy.isCacheSink(d)) {
                out.add(StrimziResources.kafkaConnect(d, c, connect, secrets, r.home()));
                out.add(StrimziResources.connectMetrics(connect, d, r.home()));
            } else {
                out.addAll(StrimziResources.secretReader(d, connect, secretName));
            }
        }
        if (!secrets.isEmpty()) {
            out.add(secrets.template(d));
        }
        return out;
    }

    /** Writes the resources into {@code dir} (or prints them, {@code dryRun}) with a short account of each. */
    static int write(List<Resource> resources, Descriptor d, Path dir, boolean dryRun) {
        if (dryRun) {
            for (Resource r : resources) {
                System.out.println("# " + r.file() + " (dry run: nothing written)");
                System.out.println("---");
                System.out.print(render(r, d));
            }
            return 0;
        }
        try {
            Files.createDirectories(dir);
            System.out.println("wrote the Kubernetes resources of " + d.name() + " (" + d.job() + " on " + d.engine()
                    + ") to " + dir + ":");
            Resource secret = null;
            for (Resource r : resources) {
                Path file = dir.resolve(r.file());
                Files.createDirectories(file.getParent());
                Files.writeString(file, render(r, d), StandardCharsets.UTF_8);
                System.out.printf("  %-52s %s%n", file, r.kind());
                if (r.kind().startsWith("Secret")) {
                    secret = r;
                }
            }
            if (secret != null) {
                Path oldPlace = dir.resolve(dir.resolve(secret.file()).getFileName());
                if (Files.exists(oldPlace)) {
                    System.out.println("  warning: " + oldPlace + " (where an older deploy wrote the Secret's template)"
                            + " is still here, and 'kubectl apply -f " + dir + "' applies it: move it out");
                }
                Object name = ((Map<?, ?>) secret.body().get("metadata")).get("name");
                System.out.println("secret: create the Secret " + name + " with the values "
                        + dir.resolve(secret.file()) + " lists (kubectl create secret generic, or a filled-in copy kept"
                        + " outside " + dir + "); kubectl apply -f " + dir + " does not read " + SECRET_TEMPLATES
                        + "/, so writing these files again never replaces it");
            }
            System.out.println("apply: kubectl apply -f " + dir);
            if (d.kubernetes().containsKey("session") && secret != null) {
                System.out.println("  the session " + d.kubernetes().get("session") + " must mount that Secret at "
                        + FlinkOperatorResources.FLINK_SECRETS + " (a session job has no pods of its own)");
            }
            System.out.println("nothing was applied: this command writes resources and reaches no Kubernetes cluster");
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A resource's file: a line on where it came from, then its YAML. */
    static String render(Resource r, Descriptor d) {
        return "# Written by 'nearline deploy " + d.file().getFileName() + " --target kubernetes': edit the descriptor"
                + " and write it again\n# rather than editing this file.\n"
                + KubernetesYaml.yaml().dump(r.body());
    }

    // ---- Flink: the Flink Kubernetes Operator's resources

    // ---- Kafka Connect: Strimzi's resources

    // ---- shared

}
