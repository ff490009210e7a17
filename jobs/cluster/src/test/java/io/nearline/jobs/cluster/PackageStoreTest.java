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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where YARN localizes packages from, on a shared directory ({@code file:///DIR}): each artifact under
 * a name of its content, never overwritten (YARN refuses a file changed since submission), the same
 * content put once, nothing half-written left under a final name.
 */
class PackageStoreTest {

    @TempDir
    Path dir;

    private PackageStore store() {
        // a directory that exists has a URI ending in a slash
        return new PackageStore(dir.resolve("packages").toUri().toString(), null);
    }

    private Path artifact(String name, String content) throws Exception {
        return Files.writeString(Files.createDirectories(dir.resolve("build")).resolve(name), content);
    }

    @Test
    void anArtifactGoesUnderItsContentAndTheSameContentIsPutOnce() throws Exception {
        Files.createDirectories(dir.resolve("packages"));
        PackageStore store = store();
        assertFalse(store.location().endsWith("/"), "the trailing slash is dropped: " + store.location());
        assertFalse(store.remote());
        Path jar = artifact("job.tar.gz", "version 1");

        String first = store.put(jar);
        assertEquals(store.target(jar), first);
        assertTrue(first.matches(".*/packages/[0-9a-f]{16}/job\\.tar\\.gz"), first);
        Path stored = Path.of(URI.create(first));
        assertEquals("version 1", Files.readString(stored));
        long modified = Files.getLastModifiedTime(stored).toMillis();

        assertEquals(first, store.put(jar), "the same content: the same name");
        assertEquals(modified, Files.getLastModifiedTime(stored).toMillis(), "not written again");
        try (Stream<Path> left = Files.walk(dir.resolve("packages"))) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith(".")), "no partial file left");
        }
    }

    @Test
    void aRebuiltArtifactGetsANewNameAndTheOldOneStaysForTheJobsStillUsingIt() throws Exception {
        PackageStore store = store();
        Path jar = artifact("job.tar.gz", "version 1");
        String first = store.put(jar);
        Files.writeString(jar, "version 2");
        String second = store.put(jar);
        assertNotEquals(first, second);
        assertEquals("version 1", Files.readString(Path.of(URI.create(first))), "never overwritten");
        assertEquals("version 2", Files.readString(Path.of(URI.create(second))));
    }

    @Test
    void aDirectoryIsPutWholeAndItsNameFollowsItsFilesNamesAndBytes() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("a.jar"), "A");
        Files.writeString(lib.resolve("b.jar"), "B");
        String digest = PackageStore.digest(lib);

        String put = store().put(lib);
        Path copy = Path.of(URI.create(put));
        assertEquals("A", Files.readString(copy.resolve("a.jar")));
        assertEquals("B", Files.readString(copy.resolve("b.jar")));

        Files.move(lib.resolve("b.jar"), lib.resolve("c.jar"));
        assertNotEquals(digest, PackageStore.digest(lib), "a renamed file is another package");
        Files.move(lib.resolve("c.jar"), lib.resolve("b.jar"));
        assertEquals(digest, PackageStore.digest(lib), "the same names and bytes: the same name again");
        Files.writeString(lib.resolve("b.jar"), "B2");
        assertNotEquals(digest, PackageStore.digest(lib));
    }

    @Test
    void aLocationThatCannotBeWrittenIsNamed() throws Exception {
        assertNull(new PackageStore(
                        Files.createDirectories(dir.resolve("ok")).toUri().toString(), null)
                .unwritableReason());
        String why = new PackageStore(dir.resolve("missing").toUri().toString(), null).unwritableReason();
        assertTrue(why != null && why.contains("is not a writable directory"), why);
    }

    @Test
    void aRemoteLocationWithoutAHadoopClientConfigurationSaysWhatToGive() throws Exception {
        PackageStore hdfs = new PackageStore("hdfs://nn:8020/apps/nearline", null);
        assertTrue(hdfs.remote());
        Path jar = artifact("job.tar.gz", "x");
        assertTrue(hdfs.target(jar).startsWith("hdfs://nn:8020/apps/nearline/"), hdfs.target(jar));
        ClusterException e = assertThrows(ClusterException.class, () -> hdfs.put(jar));
        assertTrue(e.getMessage().contains("cluster init --yarn-conf DIR"), e.getMessage());
    }
}
