// A job search page as production React apps on a design system are built: Mantine 8's
// layout components (Card, Group, Stack, Badge, Box, Text, Image) render <div> soup. A
// card is one big click target (onClick on the Card: React 18 listens at its root and
// leaves only a no-op onclick on the node, its Mobile Safari click trap); the filter
// chips are Badges with onClick (with cursor: pointer; the cards and pages without); the
// bookmark icon is a span named only by its title, with its own onClick; pagination is
// clickable divs. No ARIA, roles, ids or tabindex added. A WebSocket (the fixtures'
// /live/ws) counts the jobs posted since the page opened. The page shows its own state
// (filters, saved, opened job, page) (browser/jobsearch_test.go; served by
// browser/testdata/jobsearch.html).
import * as React from "react";
import { createRoot } from "react-dom/client";
import { MantineProvider, Container, Group, Stack, Card, Text, Badge, Box, Image, Anchor, TextInput, Button, Title, Paper } from "@mantine/core";

document.head.insertAdjacentHTML("beforeend", '<link rel="stylesheet" href="/vendor/@mantine/core/styles.css">');

const TITLES = ["Senior Go Engineer", "Frontend Developer", "Site Reliability Engineer", "Data Engineer", "Product Designer",
  "Backend Engineer (Rust)", "Engineering Manager", "Full Stack Developer", "Machine Learning Engineer",
  "Mobile Developer (React Native)", "DevOps Engineer", "QA Automation Engineer"];
const COMPANIES = ["Acme Corp", "Globex", "Initech", "Umbrella Health", "Hooli", "Stark Industries", "Wayne Enterprises",
  "Soylent", "Cyberdyne", "Vandelay Imports", "Tyrell", "Wonka Labs", "Pied Piper"];
const PLACES = ["Berlin", "Remote (EU)", "Paris", "Amsterdam", "Lisbon", "London", "Remote", "Madrid"];
const SKILLS = ["Go", "Kubernetes", "PostgreSQL", "React", "TypeScript", "AWS", "Rust", "Python", "Terraform", "GraphQL", "Figma", "Kafka"];
const POSTED = ["today", "1 day ago", "2 days ago", "3 days ago", "5 days ago", "1 week ago", "2 weeks ago"];
const CHIPS = ["Remote", "Full time", "Contract", "Senior", "Go", "React", "Python", "Rust"];
const PER_PAGE = 20;

// JOBS: 60 postings made from the tables above, the same on every load.
const JOBS = Array.from({ length: 60 }, (_, i) => {
  const low = 55 + ((i * 7) % 50);
  const tags = Array.from({ length: 2 + (i % 3) }, (_, k) => SKILLS[(i * 5 + k * 3) % SKILLS.length]);
  return {
    id: i + 1,
    title: TITLES[i % TITLES.length],
    company: COMPANIES[(i * 5) % COMPANIES.length],
    place: PLACES[(i * 3) % PLACES.length],
    salary: `€${low}k – €${low + 15 + (i % 4) * 5}k`,
    contract: i % 4 === 3 ? "Contract" : "Full time",
    tags,
    posted: POSTED[i % POSTED.length],
  };
});

function matches(job, filters, query) {
  const q = query.trim().toLowerCase();
  if (q && !`${job.title} ${job.company} ${job.tags.join(" ")}`.toLowerCase().includes(q)) return false;
  return filters.every((f) => {
    if (f === "Remote") return job.place.startsWith("Remote");
    if (f === "Full time" || f === "Contract") return job.contract === f;
    if (f === "Senior") return job.title.startsWith("Senior") || job.title.includes("Manager");
    return job.tags.includes(f);
  });
}

function BookmarkIcon({ filled }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill={filled ? "currentColor" : "none"} stroke="currentColor" strokeWidth="2">
      <path d="M18 7v14l-6 -4l-6 4v-14a4 4 0 0 1 4 -4h4a4 4 0 0 1 4 4z" />
    </svg>
  );
}

function JobCard({ job, saved, onOpen, onSave }) {
  return (
    <Card withBorder radius="md" padding="md" onClick={onOpen}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Image src="/pixel.png" w={40} h={40} radius="sm" alt={`${job.company} logo`} />
          <Stack gap={0}>
            <Text fw={600}>{job.title}</Text>
            <Text size="sm" c="dimmed">{job.company}</Text>
          </Stack>
        </Group>
        <Box component="span" c={saved ? "blue" : "gray"} title={saved ? "Saved" : "Save job"}
          onClick={(e) => { e.stopPropagation(); onSave(); }}>
          <BookmarkIcon filled={saved} />
        </Box>
      </Group>
      <Group gap="xs" mt="xs">
        <Text size="sm">{job.place}</Text>
        <Text size="sm">·</Text>
        <Text size="sm">{job.salary}</Text>
      </Group>
      <Group gap={4} mt="xs">
        {job.tags.map((t) => <Badge key={t} variant="light" size="sm">{t}</Badge>)}
      </Group>
      <Text size="xs" c="dimmed" mt="xs">{job.posted}</Text>
    </Card>
  );
}

function Pagination({ page, pages, onPage }) {
  const items = [["‹ Prev", Math.max(1, page - 1)], ...Array.from({ length: pages }, (_, i) => [String(i + 1), i + 1]), ["Next ›", Math.min(pages, page + 1)]];
  return (
    <Group gap={4} mt="md" justify="center">
      {items.map(([label, to]) => (
        <Box key={label} px="sm" py={4} bg={to === page && label === String(page) ? "blue.1" : undefined}
          style={{ borderRadius: 4 }} onClick={() => onPage(to)}>{label}</Box>
      ))}
    </Group>
  );
}

function Details({ job }) {
  if (!job) return <Text c="dimmed">Choose a job to see its details.</Text>;
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3}>{job.title}</Title>
      <Text c="dimmed">{job.company} · {job.place}</Text>
      <Text mt="sm">{job.salary} · {job.contract}</Text>
      <Text mt="sm" size="sm">You will work with {job.tags.join(", ")} in a small team that ships every week.</Text>
      <Button mt="md">Apply now</Button>
    </Paper>
  );
}

// useNewJobs counts the messages of the fixtures' WebSocket: jobs posted since the page opened.
function useNewJobs() {
  const [n, setN] = React.useState(0);
  React.useEffect(() => {
    const ws = new WebSocket(`ws://${location.host}/live/ws?ms=2500`);
    ws.onmessage = () => setN((x) => x + 1);
    return () => ws.close();
  }, []);
  return n;
}

function App() {
  const [filters, setFilters] = React.useState([]);
  const [query, setQuery] = React.useState("");
  const [draft, setDraft] = React.useState("");
  const [saved, setSaved] = React.useState([]);
  const [open, setOpen] = React.useState(null);
  const [page, setPage] = React.useState(1);
  const fresh = useNewJobs();
  const shown = JOBS.filter((j) => matches(j, filters, query));
  const pages = Math.max(1, Math.ceil(shown.length / PER_PAGE));
  const onPage = shown.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const job = JOBS.find((j) => j.id === open);
  const toggle = (list, x) => (list.includes(x) ? list.filter((y) => y !== x) : list.concat(x));
  return (
    <MantineProvider>
      <Box component="header" px="lg" py="sm" style={{ borderBottom: "1px solid #ddd" }}>
        <Group justify="space-between">
          <Image src="/pixel.png" w={32} h={32} alt="Jobly" />
          <Group component="nav" gap="lg">
            <Anchor href="#jobs">Jobs</Anchor>
            <Anchor href="#companies">Companies</Anchor>
            <Anchor href="#salaries">Salaries</Anchor>
            <Text size="sm">Saved jobs: {saved.length}</Text>
          </Group>
        </Group>
      </Box>
      <Container size="xl" py="md">
        <form onSubmit={(e) => { e.preventDefault(); setQuery(draft); setPage(1); }}>
          <Group>
            <TextInput placeholder="Job title, skill or company" value={draft} onChange={(e) => setDraft(e.currentTarget.value)} w={360} />
            <Button type="submit">Search</Button>
          </Group>
        </form>
        <Group align="flex-start" mt="md" wrap="nowrap">
          <Stack w={180} gap="xs">
            <Text fw={600} size="sm">Filters</Text>
            <Group gap={6}>
              {CHIPS.map((c) => (
                <Badge key={c} variant={filters.includes(c) ? "filled" : "outline"} style={{ cursor: "pointer" }}
                  onClick={() => { setFilters((f) => toggle(f, c)); setPage(1); }}>{c}</Badge>
              ))}
            </Group>
          </Stack>
          <Stack w={480} gap="sm">
            <Text size="sm" c="dimmed">{shown.length} jobs · page {page} of {pages} · filters {filters.join(", ") || "none"} · {fresh} new since you arrived</Text>
            {onPage.map((j) => (
              <JobCard key={j.id} job={j} saved={saved.includes(j.id)} onOpen={() => setOpen(j.id)}
                onSave={() => setSaved((s) => toggle(s, j.id))} />
            ))}
            <Pagination page={page} pages={pages} onPage={setPage} />
          </Stack>
          <Box w={360}>
            <Text size="sm" c="dimmed" mb="xs">Opened: {job ? job.title : "none"}</Text>
            <Details job={job} />
          </Box>
        </Group>
      </Container>
    </MantineProvider>
  );
}

createRoot(document.getElementById("root")).render(<App />);
