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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The secrets a deploy's settings name, moved into one Kubernetes Secret: a {@code file:PATH}
 * reference becomes a key of the Secret (the setting's name) read from where the Secret is mounted,
 * an {@code env:VAR} reference an environment variable filled from the Secret's key {@code VAR}, a
 * truststore its file; a secret written inline is refused. What each key must hold is kept for the
 * Secret's template.
 */
final class PodSecrets {

    private static final String SECRET_VOLUME = "nearline-secrets";

    /** How a value read through a config provider starts ({@code ${secrets:...}}): a reference, not a secret. */
    private static final String CONFIG_PROVIDER_REFERENCE = "${";

    final String name;
    final String mount;
    /** Key -> what to fill in, for keys mounted as files. */
    final Map<String, String> files = new TreeMap<>();
    /** Environment variable (and key) -> what to fill in. */
    final Map<String, String> env = new TreeMap<>();

    PodSecrets(String name, String mount) {
        this.name = name;
        this.mount = mount;
    }

    boolean isEmpty() {
        return files.isEmpty() && env.isEmpty();
    }

    /** {@code settings} with every secret reference pointing into the Secret. */
    Map<String, String> take(Map<String, String> settings, Descriptor d) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            out.put(e.getKey(), inPods(e.getKey(), e.getValue(), d));
        }
        return out;
    }

    /** One setting's value as the pods read it; a secret written inline is refused. */
    private String inPods(String key, String value, Descriptor d) {
        if (value.startsWith("file:")) {
            return "file:" + mount + "/" + key(key, "what " + value.substring(5) + " holds");
        }
        if (value.startsWith("env:")) {
            String var = value.substring(4);
            env.put(var, "what the variable " + var + " holds (" + key + ")");
            return value;
        }
        if (key.endsWith("ssl.truststore") && !value.isBlank()) {
            return mount + "/" + key(key, "the truststore file " + value + ", base64 under data:");
        }
        if (Config.isSecretName(key) && !value.isBlank() && !value.startsWith(CONFIG_PROVIDER_REFERENCE)) {
            throw new ClusterException(d.file() + ": " + key + " is written inline; a Kubernetes deploy takes "
                    + "secrets by reference only (file:PATH or env:VAR), and the Secret " + name
                    + " carries them into the pods");
        }
        return value;
    }

    /** A key of the Secret, with what it must hold; returns the key. */
    String key(String key, String what) {
        files.put(key, what);
        return key;
    }

    /**
     * A Debezium connector's database password: a key of the Secret, read by Strimzi's
     * KubernetesSecretConfigProvider in the namespace the resources go to.
     */
    String connectProvided(Descriptor d, String kind) {
        String namespace = d.kubernetes().get("namespace");
        if (namespace == null) {
            throw new ClusterException(d.file() + ": kubernetes.namespace is required for a Debezium connector: its "
                    + "password is read from the Secret through the Kubernetes API, ${secrets:NAMESPACE/SECRET:KEY}");
        }
        String key = key(kind + ".password", "the password of the " + kind + " user the connector logs in as");
        return "${secrets:" + namespace + "/" + name + ":" + key + "}";
    }

    Map<String, Object> volume() {
        return KubernetesYaml.map("name", SECRET_VOLUME, "secret", KubernetesYaml.map("secretName", name));
    }

    Map<String, Object> volumeMount() {
        return KubernetesYaml.map("name", SECRET_VOLUME, "mountPath", mount, "readOnly", true);
    }

    List<Object> envFromSecret() {
        List<Object> out = new ArrayList<>();
        env.keySet()
                .forEach(var -> out.add(KubernetesYaml.map(
                        "name",
                        var,
                        "valueFrom",
                        KubernetesYaml.map("secretKeyRef", KubernetesYaml.map("name", name, "key", var)))));
        return out;
    }

    /** The Secret with a line for each key saying what to fill in. */
    KubernetesDeploy.Resource template(Descriptor d) {
        Map<String, String> data = new TreeMap<>();
        files.forEach((key, what) -> data.put(key, "FILL IN: " + what));
        env.forEach((var, what) -> data.put(var, "FILL IN: " + what));
        Map<String, Object> body = KubernetesYaml.resource("v1", "Secret", name, d, Map.of(), null);
        body.put("type", "Opaque");
        body.put("stringData", data);
        return new KubernetesDeploy.Resource(
                KubernetesDeploy.SECRET_TEMPLATES + "/secret-" + name + ".yaml",
                "Secret template: fill in " + data.size() + " value(s)",
                body);
    }
}
