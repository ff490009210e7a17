package io.nearline.cacheupdater.flink;

import io.nearline.bootstrap.BootstrapSettings;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The bootstrapper as a job of its own (cdc-bootstrap): the bootstrap topic through the same
 * decode, keyBy and SCN-ordered write as the cache updater, each row refreshing its TTL.
 * {@code BootstrapJob --config job.yaml [--set key=value ...]}, with the cache updater's settings
 * plus {@code bootstrap.*}.
 */
public final class BootstrapJob {

    private BootstrapJob() {
    }

    public static void main(String[] args) throws Exception {
        Config config = Config.fromArgs(args);
        CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        CacheUpdaterJob.define(env, config, null,
                CacheUpdaterJob.bootstrapSource(settings, BootstrapSettings.from(config).topic(), false),
                CacheUpdaterJob.deadLetterSink(settings));
        env.execute("nearline-cdc-bootstrap");
    }
}
