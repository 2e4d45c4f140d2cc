// A webmail as single-page apps are built: React 18 and React Router 7 (from npm at
// test set-up, bundled by esbuild like an app's build), a header that stays on every
// route (the app's links, a search field, Compose), and routes the router moves between
// with history.pushState: the inbox, a message, the settings. The inbox's filter
// replaces the URL's query (history.replaceState, as a filter that should not add a
// history entry does); "Keyboard shortcuts" is a fragment link to the help at the
// page's end (a hash change); Archive goes back to the inbox 300 ms after the click
// (the server's answer, say). The server answers every path with this app
// (browser/spa_test.go), as an app's server does.
import * as React from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Link, NavLink, Route, Routes, useNavigate, useParams, useSearchParams } from "react-router";

const MESSAGES = [
  { id: "1", from: "Ada", subject: "Analytical engine notes", unread: true },
  { id: "2", from: "Grace", subject: "Compiler meeting", unread: false },
  { id: "3", from: "Alan", subject: "Morphogenesis draft", unread: true },
];

function Header() {
  const [query, setQuery] = React.useState("");
  const [composing, setComposing] = React.useState(0);
  return (
    <header>
      <nav>
        <NavLink to="/">Inbox</NavLink> <NavLink to="/settings">Settings</NavLink>
      </nav>
      <label>Search mail <input value={query} onChange={(e) => setQuery(e.target.value)} /></label>
      <button type="button" onClick={() => setComposing((n) => n + 1)}>Compose</button>
      <span id="composing">{"drafts " + composing}</span>
    </header>
  );
}

function Inbox() {
  const [params, setParams] = useSearchParams();
  const unreadOnly = params.get("filter") === "unread";
  const shown = MESSAGES.filter((m) => !unreadOnly || m.unread);
  return (
    <main>
      <h1>Inbox</h1>
      <button type="button" onClick={() => setParams(unreadOnly ? {} : { filter: "unread" }, { replace: true })}>
        {unreadOnly ? "Show all" : "Unread only"}
      </button>
      <ul>
        {shown.map((m) => (
          <li key={m.id}><Link to={"/messages/" + m.id}>{m.from + ": " + m.subject}</Link></li>
        ))}
      </ul>
      <a href="#help">Keyboard shortcuts</a>
      <section id="help" style={{ marginTop: "120vh" }}>
        <h2>Help</h2>
        <p>Press c to compose.</p>
      </section>
    </main>
  );
}

function Message() {
  const { id } = useParams();
  const navigate = useNavigate();
  const m = MESSAGES.find((x) => x.id === id);
  return (
    <main>
      <h1>{m ? m.subject : "No such message"}</h1>
      <p>{m ? "From " + m.from : ""}</p>
      <button type="button" onClick={() => setTimeout(() => navigate("/?archived=" + id), 300)}>Archive</button>
    </main>
  );
}

function Settings() {
  const [email, setEmail] = React.useState(true);
  return (
    <main>
      <h1>Settings</h1>
      <label><input type="checkbox" checked={email} onChange={(e) => setEmail(e.target.checked)} /> Email notifications</label>
    </main>
  );
}

function App() {
  return (
    <BrowserRouter>
      <Header />
      <Routes>
        <Route path="/" element={<Inbox />} />
        <Route path="/messages/:id" element={<Message />} />
        <Route path="/settings" element={<Settings />} />
      </Routes>
    </BrowserRouter>
  );
}

createRoot(document.getElementById("root")).render(<App />);
