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

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A networked cache server that a local tool started for its run (CouchbaseMock, redis-server), on
 * 127.0.0.1, with its files under the run's directory: what the job settings need to reach it, and the
 * faults a demo or bench puts it through.
 */
public interface ForkedStore extends AutoCloseable {

    /** Starts the server that {@code --store} names: couchbase (CouchbaseMock) or redis (redis-server). */
    static ForkedStore start(String store, Path dir) throws IOException {
        return switch (store) {
            case "couchbase" -> ForkedCouchbase.start(ForkedCouchbase.mockJar(), dir.resolve("couchbase"));
            case "redis" -> ForkedRedis.start(dir.resolve("redis"));
            default -> throw new IllegalArgumentException("no server to start for --store " + store);
        };
    }

    /** One line for the console: what runs where. */
    String describe();

    /** The job settings that reach it, {@code cache.store} included (a password by reference to its file). */
    Map<String, String> settings();

    /** The replay options that point a job's own process at it (beside its own {@code --store}). */
    List<String> replayArgs();

    /** Stops it hard (its data is lost, as a cache node's without persistence) and starts it again, empty. */
    void restart() throws IOException;

    /** Freezes it (SIGSTOP): connections stay open, so calls time out instead of being refused. */
    void pause() throws IOException, InterruptedException;

    /** Lets a paused server go on (SIGCONT). */
    void resume() throws IOException, InterruptedException;

    @Override
    void close();
}
