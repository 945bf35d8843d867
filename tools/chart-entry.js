// The Chart.js the pages load (tools/vendor.mjs bundles this file into web/vendor/chart.min.js, a
// classic script that defines the global Chart, as Chart.js's UMD build does): only what the
// charts use (line and bar charts; linear, logarithmic and category axes; legends, tooltips, the
// fill between a band's two lines; Colors as in the full build), ~5 kB gzip less on the first load.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Colors,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  LogarithmicScale,
  PointElement,
  Tooltip,
} from 'chart.js';

Chart.register(LineController, BarController, LinearScale, LogarithmicScale, CategoryScale, PointElement, LineElement, BarElement, Colors, Filler, Legend, Tooltip);
globalThis.Chart = Chart;
