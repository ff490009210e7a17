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
package io.nearline.jobs.cluster;

import java.nio.file.Path;

/**
 * The addresses of a cluster Nearline started in a network namespace of its own ({@code cluster up}):
 * the namespace's name, this machine's end of the private /30 link (10.213.x.y) and the cluster's end,
 * all derived from the cluster's folder. A service deployed beside such a cluster (a verifier's metrics)
 * listens on this machine's end, where the cluster's Prometheus reaches it.
 */
public record PrivateLink(String namespace, String hostAddress, String clusterAddress) {

    /** The link of the cluster in {@code dir}. */
    public static PrivateLink of(Path dir) {
        int h = dir.toAbsolutePath().normalize().toString().hashCode() & 0x3fff; // 16k /30 networks
        int base = h * 4;
        String prefix = "10.213." + (base >> 8) + ".";
        return new PrivateLink(
                "nearline-" + String.format("%04x", h), prefix + ((base & 0xff) + 1), prefix + ((base & 0xff) + 2));
    }
}
