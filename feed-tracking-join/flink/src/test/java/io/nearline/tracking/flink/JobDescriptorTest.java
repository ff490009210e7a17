package io.nearline.tracking.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.tracking.join.JoinSettings;
import java.time.Duration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** The shipped descriptor stays valid and builds the job graph; a misspelt key fails before start. */
class JobDescriptorTest {

    @Test
    void shippedDescriptorBuildsTheJob() {
        Config config = Config.fromArgs(new String[] {"--config", "conf/tracking-join.yaml"});
        JoinSettings.validateJob(config);
        JoinSettings settings = JoinSettings.from(config);
        assertEquals(Duration.ofSeconds(30), settings.window());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TrackingJoinJob.define(env, TrackingJoinIo.kafka(settings, false), settings);
        assertTrue(env.getStreamGraph().getStreamNodes().size() >= 8, "sources, route, join and four sinks");
    }

    @Test
    void aMisspeltKeyFailsByName() {
        Config config = Config.fromArgs(new String[] {"--config", "conf/tracking-join.yaml", "--set", "join.windw=5s"});
        ConfigException e = assertThrows(ConfigException.class, () -> JoinSettings.validateJob(config));
        assertTrue(e.getMessage().contains("join.window"), e.getMessage());
    }
}
