package io.nearline.localcluster.kit;

import io.nearline.store.redis.testkit.RedisServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A private redis-server ({@link RedisServerProcess}) as the networked cache of a local run. */
public final class ForkedRedis implements ForkedStore {

    private final RedisServerProcess server;

    private ForkedRedis(RedisServerProcess server) {
        this.server = server;
    }

    public static ForkedRedis start(Path dir) throws IOException {
        if (RedisServerProcess.unavailableReason().isPresent()) {
            throw new IllegalStateException(
                    "--store redis: " + RedisServerProcess.unavailableReason().get());
        }
        return new ForkedRedis(RedisServerProcess.start(dir));
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
