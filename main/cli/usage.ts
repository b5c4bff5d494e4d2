/** The text of `yukta help`. */
export const USAGE = `Yukta Studio command line

Usage:
  yukta serve [--port N] [--host H] [--data DIR] [--store sqlite|file|memory|postgres] [--set key=value]...
      Serve the studio and its API in a browser (default http://127.0.0.1:4310, or yukta.http.port).
      --port 0 picks a free port. Data folder: --data, else $YUKTA_DATA_DIR, else ~/.yukta-studio.
      Workflows live in <data>/yukta.db (sqlite, the default), as files under <data>/workflows (file),
      in memory only (memory), or in the PostgreSQL database of YUKTA_POSTGRES_URL (postgres; --store
      wins over yukta.store). Settings: <data>/settings.json, YUKTA_* variables, then --set
      (flag > environment > file); an unknown key or a bad value stops it with exit code 2.
      SIGINT/SIGTERM: new starts are refused, running runs get yukta.execution.shutdown-timeout,
      then it exits 0; a second signal exits at once.
  yukta validate FILE
      Check a workflow JSON file; prints each issue as "code node path: message", or "valid".
  yukta run FILE [--payload JSON] [--session S] [--set key=value]...
      Run a workflow file once in memory and print its progress and final status.
      Settings: YUKTA_* variables, then --set. SIGINT/SIGTERM gives the run the shutdown timeout.
  yukta control ID pause|resume|step N|stop [--mode DRAIN|CANCEL|KILL]|signal NODE [--data JSON] [--reject]
      Send a command to run ID on a running "yukta serve" (--url, default http://127.0.0.1:4310);
      --node X aims pause, resume, step and stop at one node. Exits 0 once applied, 1 when refused.
  yukta mcp [--url URL] [--key KEY] [--data DIR] [--store sqlite|file|memory|postgres]
      The studio's operations as an MCP server on stdio, for AI agents (docs/mcp.md). --url (or $YUKTA_URL)
      bridges to a running "yukta serve" (--key or $YUKTA_KEY when it has API keys); otherwise it opens the
      data folder itself, and refuses when another process holds it.
  yukta worker --control-plane URL[,URL...] --pool NAME [--token T] [--slots N] [--allow TYPE,...]
               [--name N] [--plugins MODULE]... [--set key=value]...
      Run node attempts placed on pool NAME (engine.placement) for a host with yukta.workers.enabled.
      Tries each URL in turn (a standby refuses); reconnects with a growing, jittered pause. The token:
      --token, else $YUKTA_WORKER_TOKEN, else yukta.workers.token. --allow: the plugin types it runs
      (default every processor that does not need the engine). TLS: yukta.workers.tls.ca (and .cert/.key).
      SIGINT/SIGTERM drains: no new attempts, running ones get yukta.workers.drain-timeout, then exit 0.
  yukta help
      Show this text.

Exit codes: 0 success, 1 invalid workflow, unsuccessful run or refused command, 2 bad command line or unreadable file.`;
