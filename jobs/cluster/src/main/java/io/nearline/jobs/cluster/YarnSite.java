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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The ResourceManager's addresses as a YARN client configuration directory ({@code yarn-site.xml}) names them. */
final class YarnSite {

    private YarnSite() {}

    /** {@code [rm-address, web-url]} from {@code conf/yarn-site.xml}; a ClusterException naming what is missing. */
    static String[] resourceManager(Path conf) {
        Path site = conf.resolve("yarn-site.xml");
        if (!Files.isRegularFile(site)) {
            throw new ClusterException("--yarn-conf " + conf + " has no yarn-site.xml: name YARN's client "
                    + "configuration directory (HADOOP_CONF_DIR)");
        }
        Map<String, String> props = new HashMap<>();
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            NodeList properties =
                    factory.newDocumentBuilder().parse(site.toFile()).getElementsByTagName("property");
            for (int i = 0; i < properties.getLength(); i++) {
                Element p = (Element) properties.item(i);
                props.put(text(p, "name"), text(p, "value"));
            }
        } catch (Exception e) {
            throw new ClusterException(site + " cannot be read: " + e.getMessage());
        }
        // as Hadoop reads them: an address not given is the ResourceManager's host name at the default port
        String host = props.get("yarn.resourcemanager.hostname");
        String rm = props.getOrDefault("yarn.resourcemanager.address", host == null ? null : host + ":8032");
        String web = props.getOrDefault("yarn.resourcemanager.webapp.address", host == null ? null : host + ":8088");
        if (rm == null || web == null) {
            throw new ClusterException(site + " names neither yarn.resourcemanager.hostname nor "
                    + "yarn.resourcemanager.address and yarn.resourcemanager.webapp.address: they are needed to "
                    + "deploy and to watch");
        }
        return new String[] {rm, web.startsWith("http") ? web : "http://" + web};
    }

    private static String text(Element parent, String tag) {
        NodeList n = parent.getElementsByTagName(tag);
        return n.getLength() == 0 ? "" : n.item(0).getTextContent().strip();
    }
}
