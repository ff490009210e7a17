package io.nearline.cacheupdater.flink;

import io.nearline.engine.flink.FlinkJobMain;

/**
 * The bootstrapper as a job of its own (cdc-bootstrap): the bootstrap topic through the same
 * decode, keyBy and SCN-ordered write as the cache updater, each row refreshing its TTL. From the
 * cache-updater jar: {@code flink run -c io.nearline.cacheupdater.flink.BootstrapJob
 * nearline-cache-updater-flink.jar --config cache-updater.yaml [--set key=value ...]}.
 */
public final class BootstrapJob {

    private BootstrapJob() {}

    public static void main(String[] args) {
        FlinkJobMain.run(
                "nearline-cdc-bootstrap",
                args,
                (env, config) -> CacheUpdaterJob.define(env, CacheUpdaterIo.kafka(config, false, true, false), config));
    }
}
