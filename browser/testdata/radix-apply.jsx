// A job application built the way shadcn/ui builds one, on Radix UI primitives
// (React 18; all from npm at test set-up, bundled by esbuild like an app's build):
// a dropdown menu, a modal dialog (Radix hides the rest of the page with
// aria-hidden, except live regions and what holds them), a label, a select (a
// listbox in a popper, opened on pointerdown), a checkbox (a button), and a toast
// region at the app's root (browser/radix_test.go). Nothing here submits: the
// submit button only counts its presses, shown with the form's state.
import * as React from "react";
import { createRoot } from "react-dom/client";
import * as Dialog from "@radix-ui/react-dialog";
import * as Select from "@radix-ui/react-select";
import * as Checkbox from "@radix-ui/react-checkbox";
import * as Toast from "@radix-ui/react-toast";
import * as Label from "@radix-ui/react-label";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";

function SortMenu() {
  const [sort, setSort] = React.useState("Newest");
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="button">Sort by: {sort}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" sideOffset={4}>
          <DropdownMenu.Item className="item" onSelect={() => setSort("Newest")}>Newest</DropdownMenu.Item>
          <DropdownMenu.Item className="item" onSelect={() => setSort("Salary")}>Salary</DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function App() {
  const [open, setOpen] = React.useState(false);
  const [phone, setPhone] = React.useState("");
  const [country, setCountry] = React.useState("");
  const [agree, setAgree] = React.useState(false);
  const [submitted, setSubmitted] = React.useState(0);
  const [saved, setSaved] = React.useState(false);
  return (
    <Toast.Provider swipeDirection="right" duration={60000}>
      <header>
        <label htmlFor="search">Search jobs</label> <input id="search" />
        <SortMenu />
        <span className="status" aria-live="polite">{saved ? "Your draft is saved." : ""}</span>
      </header>
      <main>
        <h2>Senior Go Engineer</h2>
        <pre id="state">{"state " + JSON.stringify({ phone, country, agree, submitted })}</pre>
        <Dialog.Root open={open} onOpenChange={setOpen}>
          <Dialog.Trigger className="button">Easy Apply</Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="overlay" />
            <Dialog.Content className="dialog">
              <Dialog.Title>Apply to Senior Go Engineer</Dialog.Title>
              <Dialog.Description>Acme Robotics will see your answers.</Dialog.Description>
              <form onSubmit={(e) => { e.preventDefault(); setSubmitted((n) => n + 1); }}>
                <p><Label.Root htmlFor="phone">Mobile phone number</Label.Root>{" "}
                  <input id="phone" type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} /></p>
                <p><Label.Root htmlFor="country">Country</Label.Root>{" "}
                  <Select.Root name="country" value={country} onValueChange={setCountry}>
                    <Select.Trigger id="country" className="button">
                      <Select.Value placeholder="Select a country" />
                      <Select.Icon>▾</Select.Icon>
                    </Select.Trigger>
                    <Select.Portal>
                      <Select.Content className="menu" position="popper" sideOffset={4}>
                        <Select.Viewport>
                          <Select.Item className="item" value="de"><Select.ItemText>Germany</Select.ItemText></Select.Item>
                          <Select.Item className="item" value="fr"><Select.ItemText>France</Select.ItemText></Select.Item>
                          <Select.Item className="item" value="es"><Select.ItemText>Spain</Select.ItemText></Select.Item>
                        </Select.Viewport>
                      </Select.Content>
                    </Select.Portal>
                  </Select.Root></p>
                <p><Checkbox.Root id="agree" className="box" checked={agree} onCheckedChange={(v) => setAgree(v === true)}>
                    <Checkbox.Indicator>✓</Checkbox.Indicator>
                  </Checkbox.Root>{" "}
                  <Label.Root htmlFor="agree">I agree to be contacted</Label.Root></p>
                <p>
                  <button type="button" className="button" onClick={() => setSaved(true)}>Save draft</button>{" "}
                  <Dialog.Close className="button">Cancel</Dialog.Close>{" "}
                  <button type="submit" className="button">Submit application</button>
                </p>
              </form>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      </main>
      <Toast.Root className="toast" open={saved} onOpenChange={setSaved}>
        <Toast.Title>Draft saved</Toast.Title>
        <Toast.Action altText="Undo saving the draft" className="button" onClick={() => setSaved(false)}>Undo</Toast.Action>
      </Toast.Root>
      <Toast.Viewport className="toasts" />
    </Toast.Provider>
  );
}

document.title = "Radix application";
createRoot(document.getElementById("root")).render(<App />);
