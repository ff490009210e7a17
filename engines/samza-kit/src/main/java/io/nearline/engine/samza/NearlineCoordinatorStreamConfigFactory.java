package io.nearline.engine.samza;

import io.nearline.common.config.ConfigKey;
import io.nearline.common.config.KafkaSecurity;
import java.util.HashMap;
import java.util.Map;
import org.apache.samza.config.Config;
import org.apache.samza.config.MapConfig;
import org.apache.samza.util.DefaultCoordinatorStreamConfigFactory;

/**
 * The config a YARN ApplicationMaster starts from, before it reads the job's whole config from the
 * coordinator stream: Samza's (the coordinator system's settings, the job's name and id) and the
 * job's Kafka client security, so that {@link NearlineKafkaSystemFactory} reaches a secured broker
 * from the first read. Only references travel, never a password. Name it in
 * {@code job.coordinatorstream.config.factory}.
 */
public class NearlineCoordinatorStreamConfigFactory extends DefaultCoordinatorStreamConfigFactory {

    @Override
    public Config buildCoordinatorStreamConfig(Config config) {
        Map<String, String> out = new HashMap<>(super.buildCoordinatorStreamConfig(config));
        for (ConfigKey<?> key : KafkaSecurity.DEF.keys()) {
            String value = config.get(key.name());
            if (value != null) {
                out.put(key.name(), value);
            }
        }
        return new MapConfig(out);
    }
}
