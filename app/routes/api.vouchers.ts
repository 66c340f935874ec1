import { data } from "react-router";

export function loader() {
  return data({ error: "Authentication required" }, { status: 401, headers: { "Cache-Control": "no-store" } });
}
