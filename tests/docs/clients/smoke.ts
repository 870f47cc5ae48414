// The TypeScript client's smoke test: types generated from /doc by openapi-typescript
// (schema.d.ts, beside this file when it is compiled), requests by openapi-fetch.
// Usage: node smoke.js BASE_URL "login:password"; prints one line per step, exits 1 on a failure.
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

declare const process: { argv: string[]; exit(code: number): never };

const [baseUrl, credentials] = process.argv.slice(2);
const headers = { Authorization: "Basic " + btoa(credentials) };
const api = createClient<paths>({ baseUrl, headers });

function check(condition: boolean, step: string, detail: unknown): void {
  if (!condition) {
    console.log(`FAILED ${step}: ${JSON.stringify(detail)}`);
    process.exit(1);
  }
  console.log(`ok ${step}`);
}

async function main(): Promise<void> {
  const created = await api.POST("/events", {
    body: {
      title: "TypeScript smoke",
      start_date: "2030-01-01 10:00:00",
      end_date: "2030-01-01 11:00:00",
      categories: ["Concerts"],
      venue: { venue: "Hall" },
    },
  });
  check(created.response.status === 201 && created.data !== undefined, "create", created.error);
  const id = created.data!.id;
  const window = { start_date: "2029-12-31", end_date: "2030-01-02", search: "TypeScript smoke" };
  const listed = await api.GET("/events", { params: { query: window } });
  const ids = (listed.data?.events ?? []).map((event) => event.id);
  check(ids.includes(id), "list", listed.error ?? ids);
  const read = await api.GET("/events/{id}", { params: { path: { id } } });
  check(read.data?.title === "TypeScript smoke", "read", read.error);
  const updated = await api.PATCH("/events/{id}", {
    params: { path: { id } },
    body: { title: "TypeScript smoke 2" },
  });
  check(updated.data?.title === "TypeScript smoke 2", "update", updated.error);
  const deleted = await api.DELETE("/events/{id}", { params: { path: { id } } });
  check(deleted.response.status === 200, "delete", deleted.error);
  const gone = await api.GET("/events/{id}", { params: { path: { id } } });
  check(gone.response.status === 403 || gone.response.status === 410, "gone", gone.error);
}

main().catch((error: unknown) => {
  console.log(`FAILED: ${String(error)}`);
  process.exit(1);
});
