// A list of job applications in an Ant Design 6 table (React 18; from npm at test
// set-up, bundled by esbuild like an app's build), each row with the same two actions,
// Edit and Delete, the latter behind a Popconfirm, as admin pages have them
// (browser/antd_test.go). The page shows what it was asked to do.
import * as React from "react";
import { createRoot } from "react-dom/client";
import { Button, Popconfirm, Space, Table } from "antd";

const initial = [
  { key: "acme", company: "Acme Robotics", role: "Senior Go Engineer", status: "Interview" },
  { key: "globex", company: "Globex", role: "Staff Rust Engineer", status: "Applied" },
  { key: "initech", company: "Initech", role: "Platform Engineer", status: "Offer" },
];

function App() {
  const [rows, setRows] = React.useState(initial);
  const [editing, setEditing] = React.useState(null);
  const columns = [
    { title: "Company", dataIndex: "company" },
    { title: "Role", dataIndex: "role" },
    { title: "Status", dataIndex: "status" },
    { title: "Actions", key: "actions", render: (_, r) => (
      <Space>
        <Button type="link" onClick={() => setEditing(r.company)}>Edit</Button>
        <Popconfirm title={"Delete the application to " + r.company + "?"} okText="Delete" cancelText="Keep"
          onConfirm={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}>
          <Button type="link" danger>Delete</Button>
        </Popconfirm>
      </Space>
    ) },
  ];
  return (
    <main>
      <h2>My applications</h2>
      <pre id="state">{"state " + JSON.stringify({ rows: rows.map((r) => r.company), editing })}</pre>
      <Table columns={columns} dataSource={rows} pagination={false} />
    </main>
  );
}

document.title = "Ant Design table";
createRoot(document.getElementById("root")).render(<App />);
