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
package io.nearline.localcluster.kit.processes;

import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.RedisStoreSettings;
import io.nearline.common.config.Config;
import io.nearline.common.testkit.RedisServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A private redis-server ({@link RedisServerProcess}) as the networked cache of a local run. */
public final class ForkedRedis implements ForkedStore {

    /** What the Redis store asks of the servers the local tools start: its jobs' ACL rule and its function library. */
    public static final RedisServerProcess.Store STORE = new RedisServerProcess.Store(
            RedisCacheStore.JOB_COMMANDS,
            admin -> RedisCacheStore.loadFunctions(RedisStoreSettings.from(Config.of(admin))));

    private final RedisServerProcess server;

    private ForkedRedis(RedisServerProcess server) {
        this.server = server;
    }

    public static ForkedRedis start(Path dir) throws IOException {
        if (RedisServerProcess.unavailableReason().isPresent()) {
            throw new IllegalStateException(
                    "--store redis: " + RedisServerProcess.unavailableReason().get());
        }
        return new ForkedRedis(RedisServerProcess.start(dir, STORE));
    }

    @Override
    public String describe() {
        return "redis-server " + server.uri() + ", user " + RedisServerProcess.USER;
    }

    @Override
    public Map<String, String> settings() {
        return server.settings();
    }

    @Override
    public List<String> replayArgs() {
        Map<String, String> s = settings();
        return List.of(
                "--redis-servers",
                s.get("redis.servers"),
                "--redis-user",
                s.get("redis.username"),
                "--redis-password",
                s.get("redis.password"));
    }

    @Override
    public void restart() throws IOException {
        server.restart();
    }

    @Override
    public void pause() throws IOException {
        server.pause();
    }

    @Override
    public void resume() throws IOException {
        server.resume();
    }

    @Override
    public void close() {
        server.close();
    }
}
