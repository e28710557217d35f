// A member whose type is made of a template template parameter (`template <typename> class Data` ... `Data<T> data`)
// is of the template it is given (test/fixtures/template-template.cu, as TensorFlow's top-k heap over StridedData).
// (was: `Data<T>` was a type not known, the member held the pointer it was initialized from, and `data[i]` through
// `Strided::operator[]` read as `sm[0]`: a broadcast, where every lane writes word 32 t: 32-way)
import { test, before } from 'node:test';
import { ready, analyzeFile, accessAt, warpFigures } from './helpers/engine';

before(() => ready);

test('operator[] of the class a template template parameter is given is followed', () => {
  const { text, result } = analyzeFile('test/fixtures/template-template.cu');
  // Strided: sm[32 t]: bank 0 for every lane, 32 words: 32-way
  warpFigures(accessAt(result, text, 'return data[threadIdx.x * 32 + i]', 'store'), 'conflict', 32, 32, 32, 32);
  // Padded: sm[33 t + 1]: 32 banks
  warpFigures(accessAt(result, text, 'return data[threadIdx.x * 33 + i]', 'store'), 'conflict-free', 1, 1, 32, 32);
});
