package io.nearline.localcluster.deploy;

import io.nearline.localcluster.cluster.ClusterException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --set KEY=VALUE}, repeatable: Nearline settings over a descriptor's or the cluster's. */
public final class SetOptions {

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "A Nearline setting over the others; repeatable.")
    List<String> sets = List.of();

    public List<String> values() {
        return sets;
    }

    public Map<String, String> overrides() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String s : sets) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new ClusterException("--set takes KEY=VALUE, got '" + s + "'");
            }
            out.put(s.substring(0, eq).strip(), s.substring(eq + 1).strip());
        }
        return out;
    }
}
