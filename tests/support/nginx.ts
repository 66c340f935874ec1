import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDebianPackage } from "../../scripts/debian-package.mjs";
import { freePort } from "./free-port";

// Debian's nginx in front of the production server, run from the site config docs/operations.md tells
// operators to install (deploy/nginx-site.conf): a child process of the test with its own config,
// pid, logs and caches in a temporary folder, on free loopback ports, and a certificate made for it.

const SHIPPED_SITE = new URL("../../deploy/nginx-site.conf", import.meta.url);

/** The shipped config's public name, the one its certificate paths are named after. */
const SHIPPED_DOMAIN = "www.jetlane.example";
/** The name the test serves the site under: the certificate's. */
const HOST_NAME = "localhost";

/** Where nginx will listen, chosen before the app starts: its SITE_URL names the https port. */
export interface NginxPorts {
  httpPort: number;
  httpsPort: number;
  /** The site's public origin: https://localhost:<httpsPort>. */
  origin: string;
}

export async function nginxPorts(): Promise<NginxPorts> {
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  return { httpPort, httpsPort, origin: `https://${HOST_NAME}:${httpsPort}` };
}

export interface RunningNginx extends NginxPorts {
  /** The certificate nginx presents, for clients to trust. */
  certificate: string;
  /** The site's access log so far (deploy/nginx-site.conf's format). */
  accessLog(): string;
  stop(): Promise<void>;
}

/**
 * The shipped site config with the machine's parts swapped for the test's: ports, the name, the
 * certificate, logs and cache folder. Each swapped text must be there, so a change to the shipped
 * file that this does not follow fails here rather than going untested.
 */
function renderSiteConfig(
  shipped: string,
  { appPort, httpPort, httpsPort, folder }: { appPort: number; httpPort: number; httpsPort: number; folder: string },
): string {
  const swaps: [string, string][] = [
    ["server 127.0.0.1:3000;", `server 127.0.0.1:${appPort};`],
    ["listen 80;", `listen 127.0.0.1:${httpPort};`],
    ["listen 443 ssl http2;", `listen 127.0.0.1:${httpsPort} ssl http2;`],
    // IPv6 may be off in a container: the IPv4 listeners above are the ones the test uses.
    ["listen [::]:80;", ""],
    ["listen [::]:443 ssl http2;", ""],
    [`https://${SHIPPED_DOMAIN}$request_uri`, `https://${HOST_NAME}:${httpsPort}$request_uri`],
    [`/etc/letsencrypt/live/${SHIPPED_DOMAIN}/fullchain.pem`, join(folder, "certificate.pem")],
    [`/etc/letsencrypt/live/${SHIPPED_DOMAIN}/privkey.pem`, join(folder, "key.pem")],
    [`server_name ${SHIPPED_DOMAIN};`, `server_name ${HOST_NAME};`],
    ["/var/lib/nginx/jetlane-assets", join(folder, "assets-cache")],
    ["/var/log/nginx/", `${folder}/`],
  ];
  let config = shipped;
  for (const [shippedText, testText] of swaps) {
    if (!config.includes(shippedText)) throw new Error(`deploy/nginx-site.conf no longer contains "${shippedText}"`);
    config = config.replaceAll(shippedText, testText);
  }
  return config;
}

/** What Debian's /etc/nginx/nginx.conf wraps a site in, with every path in `folder`. */
function mainConfig(folder: string, siteFile: string): string {
  // As root the master process hands the requests to unprivileged workers, as on a server.
  const workerUser =
    process.getuid?.() === 0
      ? `user nobody ${execFileSync("id", ["-gn", "nobody"], { encoding: "utf8" }).trim()};`
      : "";
  return `${workerUser}
daemon off;
worker_processes 1;
pid ${folder}/nginx.pid;
error_log stderr;
events { worker_connections 64; }
http {
    client_body_temp_path ${folder}/client-body;
    proxy_temp_path ${folder}/proxy;
    fastcgi_temp_path ${folder}/fastcgi;
    uwsgi_temp_path ${folder}/uwsgi;
    scgi_temp_path ${folder}/scgi;
    access_log off;
    # Debian's turns compression on: the site turns it off.
    gzip on;
    include ${siteFile};
}
`;
}

/** A self-signed certificate for HOST_NAME, made with the openssl command line. */
function makeCertificate(folder: string): string {
  const openssl = ensureDebianPackage({
    packageName: "openssl",
    paths: ["/usr/bin/openssl"],
    hint: "Install the openssl command (Debian/Ubuntu: `sudo apt-get install openssl`).",
  });
  execFileSync(openssl, [
    "req",
    ...["-x509", "-nodes", "-days", "2", "-subj", `/CN=${HOST_NAME}`],
    ...["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
    ...["-addext", `subjectAltName=DNS:${HOST_NAME}`],
    ...["-keyout", join(folder, "key.pem"), "-out", join(folder, "certificate.pem")],
  ]);
  return readFileSync(join(folder, "certificate.pem"), "utf8");
}

/** Starts nginx on `ports` with the shipped site config in front of the app on `appPort`; resolves once it proxies. */
export async function startNginx(ports: NginxPorts, appPort: number): Promise<RunningNginx> {
  const nginx = ensureDebianPackage({
    packageName: "nginx",
    paths: ["/usr/sbin/nginx"],
    hint: "Install nginx (Debian/Ubuntu: `sudo apt-get install nginx`).",
  });
  const folder = mkdtempSync(join(tmpdir(), "nginx-"));
  // nobody's workers must reach their temporary files and cache in it.
  chmodSync(folder, 0o755);
  const { httpPort, httpsPort } = ports;
  const certificate = makeCertificate(folder);
  const siteFile = join(folder, "site.conf");
  writeFileSync(
    siteFile,
    renderSiteConfig(readFileSync(SHIPPED_SITE, "utf8"), { appPort, httpPort, httpsPort, folder }),
  );
  const configFile = join(folder, "nginx.conf");
  writeFileSync(configFile, mainConfig(folder, siteFile));

  const child = spawn(nginx, ["-p", folder, "-c", configFile, "-e", "stderr"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stdout.on("data", (chunk) => (stderr += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const output = () => {
    let errorLog = "";
    try {
      errorLog = readFileSync(join(folder, "jetlane.error.log"), "utf8");
    } catch {
      // not written yet
    }
    return stderr + errorLog;
  };
  const running: RunningNginx = {
    ...ports,
    certificate,
    accessLog: () => readFileSync(join(folder, "jetlane.access.log"), "utf8"),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const health = await send(running, "/healthz").catch(() => undefined);
    if (health?.status === 200) return running;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Read before stop() removes the folder, and with it the error log.
  const written = output();
  await running.stop();
  throw new Error(`nginx did not proxy /healthz within 10 s (exit code ${child.exitCode}); its output:\n${written}`);
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The client's own loopback address (127.0.0.2, …): what nginx sees as the client's. */
  from?: string;
  /** Plain http to nginx's port 80 listener instead of https. */
  plainHttp?: boolean;
}

/** One request to nginx as a browser at `from` sends it, over https trusting the test's certificate. */
export function send(
  nginx: RunningNginx,
  path: string,
  { method = "GET", headers = {}, body, from = "127.0.0.1", plainHttp = false }: SendOptions = {},
): Promise<Answer> {
  const port = plainHttp ? nginx.httpPort : nginx.httpsPort;
  const options = {
    host: "127.0.0.1",
    port,
    path,
    method,
    localAddress: from,
    agent: false,
    headers: { Host: `${HOST_NAME}:${port}`, ...headers },
  };
  return new Promise((resolve, reject) => {
    const request = plainHttp
      ? httpRequest(options)
      : httpsRequest({ ...options, ca: nginx.certificate, servername: HOST_NAME });
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() }),
      );
      response.on("error", reject);
    });
    request.end(body);
  });
}
