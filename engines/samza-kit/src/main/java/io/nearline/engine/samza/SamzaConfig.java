package io.nearline.engine.samza;

import io.nearline.common.config.Config;
import java.util.HashMap;
import java.util.Map;

/** A Samza job's config as Nearline's {@link Config}: one file holds both, in namespaces that never clash. */
public final class SamzaConfig {

    private SamzaConfig() {}

    public static Config nearline(org.apache.samza.config.Config samza) {
        Map<String, String> raw = new HashMap<>();
        samza.forEach(raw::put);
        return Config.of(raw);
    }
}
