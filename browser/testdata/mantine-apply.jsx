// A job application built with Mantine 8 (React 18) and react-hook-form 7, both from
// npm at test set-up and bundled by esbuild (browser/mantine_test.go): a searchable
// select, a multiple select, a switch, a checkbox, a segmented control, an e-mail field
// validated on blur, and a modal that asks before sending. Nothing is sent; the state
// line shows what the form holds.
import * as React from "react";
import { createRoot } from "react-dom/client";
import { MantineProvider, Select, MultiSelect, Switch, Checkbox, SegmentedControl, TextInput, Button, Modal } from "@mantine/core";
import { useForm, Controller } from "react-hook-form";

document.head.insertAdjacentHTML("beforeend", '<link rel="stylesheet" href="/vendor/@mantine/core/styles.css">');

function App() {
  const { register, control, watch, handleSubmit, formState: { errors } } = useForm({
    mode: "onBlur",
    defaultValues: { city: null, skills: [], remote: false, agree: false, contract: "full", email: "" },
  });
  const [ask, setAsk] = React.useState(false);
  const [sent, setSent] = React.useState(false);
  const values = watch();
  return (
    <MantineProvider>
      <form onSubmit={handleSubmit(() => setAsk(true))} style={{ maxWidth: 420 }}>
        <Controller name="city" control={control} render={({ field }) => (
          <Select label="City" placeholder="Choose a city" searchable data={["Berlin", "Paris", "Madrid", "Lisbon"]} {...field} />
        )} />
        <Controller name="skills" control={control} render={({ field }) => (
          <MultiSelect label="Skills" placeholder="Choose skills" data={["Go", "Rust", "SQL"]} {...field} />
        )} />
        <Controller name="remote" control={control} render={({ field }) => (
          <Switch label="Remote" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
        )} />
        <Controller name="contract" control={control} render={({ field }) => (
          <SegmentedControl data={[{ label: "Full time", value: "full" }, { label: "Part time", value: "part" }]} {...field} />
        )} />
        <TextInput label="E-mail" {...register("email", { required: "E-mail is required", pattern: { value: /^\S+@\S+$/, message: "Not an e-mail address" } })}
          error={errors.email && errors.email.message} />
        <Controller name="agree" control={control} render={({ field }) => (
          <Checkbox label="I agree to the privacy policy" checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
        )} />
        <Button type="submit">Send application</Button>
      </form>
      <Modal opened={ask} onClose={() => setAsk(false)} title="Send your application?">
        <p>It goes to Acme's recruiters.</p>
        <Button variant="default" onClick={() => setAsk(false)}>Cancel</Button>
        <Button onClick={() => { setSent(true); setAsk(false); }}>Send</Button>
      </Modal>
      <pre id="state">state {JSON.stringify({ ...values, sent })}</pre>
    </MantineProvider>
  );
}

createRoot(document.getElementById("root")).render(<App />);
